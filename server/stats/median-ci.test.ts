import { describe, expect, it } from "vitest";
import { close, fixtureJson } from "./fixtures/load";
import { halfWidthPercent, medianCi, medianCiOrders } from "./median-ci";

interface Row {
  n: number;
  confidence: number;
  lo_order: number;
  hi_order: number;
  achieved: number;
  ambiguous: boolean;
}
const rows = fixtureJson<{ rows: Row[] }>("benchstat/median_ci.json").rows;

describe("medianCiOrders against go-moremath stats.QuantileCI (benchstat)", () => {
  it.each(rows.map((r) => [r.n, r.confidence, r] as const))("n = %i at %f", (_n, _c, r) => {
    const got = medianCiOrders(r.n, r.confidence);
    expect(close(got.confidence, r.achieved, 1e-12, 1e-14), `${got.confidence} vs ${r.achieved}`).toBe(true);
    if (r.n > 20 && r.n <= 30 && got.loOrder !== r.lo_order) {
      // Known difference: for 21 ≤ n ≤ 30 go-moremath computes C(n, k) as exp(lgamma…), so two
      // mathematically equal binomial probabilities differ in the last bits and decide which of
      // two intervals with the same confidence benchstat takes. Versus uses exact C(n, k) and
      // always takes the left one. Same confidence, orders one apart.
      expect(r.lo_order - got.loOrder).toBe(1);
      expect(r.hi_order - got.hiOrder).toBe(1);
      return;
    }
    expect([got.loOrder, got.hiOrder]).toEqual([r.lo_order, r.hi_order]);
    if (r.n <= 20 || r.n > 30) expect(got.ambiguous).toBe(r.ambiguous);
  });

  it("differs from benchstat only where its rounding picks between equally confident intervals", () => {
    const differing = rows.filter((r) => {
      const got = medianCiOrders(r.n, r.confidence);
      return got.loOrder !== r.lo_order || got.hiOrder !== r.hi_order;
    });
    expect(differing.every((r) => r.n > 20 && r.n <= 30)).toBe(true);
  });
});

describe("medianCi", () => {
  it("uses benchstat's order statistics once n is large enough (n = 6 at 95%)", () => {
    const ci = medianCi([1, 2, 3, 4, 5, 6], 0.95);
    expect(ci).toMatchObject({ median: 3.5, low: 1, high: 6, lowOrder: 1, highOrder: 6, reachedRequested: true });
    expect(ci?.confidence).toBeCloseTo(1 - 2 / 64, 15);
  });

  it("returns [min, max] with its actual confidence when n is too small for the level", () => {
    const ci = medianCi([3.1, 3.2, 3.3, 3.4, 3.5], 0.95);
    expect(ci).toMatchObject({ low: 3.1, high: 3.5, reachedRequested: false });
    expect(ci?.confidence).toBeCloseTo(0.9375, 15);
    expect(medianCi([7], 0.95)).toMatchObject({ median: 7, low: 7, high: 7, confidence: 0 });
    expect(medianCi([], 0.95)).toBeNull();
  });

  it("reports benchstat's ± % and null where benchstat prints '?'", () => {
    expect(halfWidthPercent(100, 90, 105)).toBeCloseTo(10, 12);
    expect(halfWidthPercent(1, -1, 2)).toBeNull();
    expect(halfWidthPercent(0, 0, 0)).toBe(0);
  });
});
