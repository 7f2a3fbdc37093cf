import { describe, expect, it } from "vitest";
import { close, fixtureJson, scipy } from "./fixtures/load";
import { chooseMethod, mannWhitneyU } from "./mann-whitney";
import { binomial, minReplicatesForAlpha, minTwoSidedP, uCdf } from "./u-distribution";

const fixture = scipy();

describe("mannWhitneyU against scipy.stats.mannwhitneyu(method='auto')", () => {
  it.each(fixture.cases.map((c) => [c.name, c] as const))("%s", (_name, c) => {
    const r = mannWhitneyU(c.x, c.y);
    expect(r.method).toBe(c.mannwhitneyu.method);
    expect(r.u).toBe(c.mannwhitneyu.U);
    expect(close(r.p, c.mannwhitneyu.p), `p ${r.p} vs scipy ${c.mannwhitneyu.p}`).toBe(true);
  });

  it("is symmetric: swapping the samples keeps p and mirrors U", () => {
    for (const c of fixture.cases) {
      const a = mannWhitneyU(c.x, c.y);
      const b = mannWhitneyU(c.y, c.x);
      expect(b.p).toBe(a.p);
      expect(b.u).toBe(c.x.length * c.y.length - a.u);
    }
  });
});

describe("method rule (scipy's _mwu_choose_method)", () => {
  it("uses exact when one side has ≤ 8 values and there are no ties", () => {
    expect(chooseMethod(8, 100, false)).toBe("exact");
    expect(chooseMethod(100, 3, false)).toBe("exact");
    expect(chooseMethod(9, 9, false)).toBe("asymptotic");
    expect(chooseMethod(3, 3, true)).toBe("asymptotic");
  });
});

describe("exact U distribution", () => {
  // Additions-only recurrence f(m, n, u) = f(m−1, n, u−n) + f(m, n−1, u) as an independent check.
  function bruteCounts(n1: number, n2: number): number[] {
    const memo = new Map<string, number>();
    const f = (m: number, n: number, u: number): number => {
      if (u < 0) return 0;
      if (m === 0 || n === 0) return u === 0 ? 1 : 0;
      const key = `${m},${n},${u}`;
      const hit = memo.get(key);
      if (hit !== undefined) return hit;
      const v = f(m - 1, n, u - n) + f(m, n - 1, u);
      memo.set(key, v);
      return v;
    };
    return Array.from({ length: n1 * n2 + 1 }, (_, u) => f(n1, n2, u));
  }

  it("matches the recurrence for all sizes up to 12 × 12", () => {
    for (let n1 = 1; n1 <= 12; n1++) {
      for (let n2 = 1; n2 <= 12; n2++) {
        const counts = bruteCounts(n1, n2);
        const total = binomial(n1 + n2, n1);
        let acc = 0;
        for (let u = 0; u <= n1 * n2; u++) {
          acc += counts[u] as number;
          expect(close(uCdf(u, n1, n2), acc / total, 1e-13, 1e-15)).toBe(true);
        }
      }
    }
  });

  it("gives the smallest attainable p and the fewest runs per side at an alpha", () => {
    expect(minTwoSidedP(3, 3)).toBeCloseTo(0.1, 15);
    expect(minTwoSidedP(4, 4)).toBeCloseTo(2 / 70, 15);
    expect(minReplicatesForAlpha(0.05)).toBe(4);
    expect(minReplicatesForAlpha(0.1)).toBe(3);
    expect(minReplicatesForAlpha(0.01)).toBe(5);
    expect(minReplicatesForAlpha(0.05 / 3)).toBe(5);
  });
});

describe('method "benchstat" against go-moremath MannWhitneyUTest (benchstat\'s U-test)', () => {
  const rows = fixtureJson<{ rows: { x: number[]; y: number[]; u: number; p: number }[] }>("benchstat/utest.json").rows;

  it.each(rows.map((r, i) => [i, r.x.length, r.y.length, r] as const))("case %i (%i vs %i)", (_i, _n1, _n2, r) => {
    const got = mannWhitneyU(r.x, r.y, "benchstat");
    expect(got.u).toBe(r.u);
    expect(close(got.p, r.p, 1e-9, 1e-12), `p ${got.p} vs go-moremath ${r.p}`).toBe(true);
  });

  it("agrees with scipy's rule when one side has ≤ 8 values and there are no ties", () => {
    for (const c of fixture.cases.filter((c) => c.mannwhitneyu.method === "exact" && c.x.length <= 50 && c.y.length <= 50)) {
      expect(close(mannWhitneyU(c.x, c.y, "benchstat").p, c.mannwhitneyu.p)).toBe(true);
    }
  });
});
