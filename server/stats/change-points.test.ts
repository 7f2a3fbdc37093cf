import { describe, expect, it } from "vitest";
import { detectChangePoints, qHatCurve, splitSums } from "./change-points";
import { close, fixtureJson } from "./fixtures/load";
import { mulberry32, standardNormal } from "./prng";

interface EDivisiveCase {
  name: string;
  values: number[];
  t: number[];
  change_points: number[];
}
const reference = fixtureJson<{ cases: EDivisiveCase[] }>("e-divisive/cases.json");

/** Seeded normal noise around a level per point: `levels(i)` gives the true level at i. */
function noisy(count: number, levels: (i: number) => number, relSd: number, seed: number): number[] {
  const random = mulberry32(seed);
  return Array.from({ length: count }, (_, i) => levels(i) * (1 + relSd * standardNormal(random)));
}

/** 300 commits around 100: +8% from 100, then −5% (of that level) from 200; sd 1.5%. */
const twoShifts = (seed: number) => noisy(300, (i) => (i < 100 ? 100 : i < 200 ? 108 : 108 * 0.95), 0.015, seed);

/** q̂ at τ straight from the definition (all pairs, no running sums). */
function bruteQHat(values: readonly number[], tau: number, alpha: number): number {
  const x = values.slice(0, tau);
  const y = values.slice(tau);
  const d = (a: number, b: number) => Math.abs(a - b) ** alpha;
  let across = 0;
  for (const a of x) for (const b of y) across += d(a, b);
  let wx = 0;
  for (let i = 0; i < x.length; i++) for (let k = i + 1; k < x.length; k++) wx += d(x[i] as number, x[k] as number);
  let wy = 0;
  for (let i = 0; i < y.length; i++) for (let k = i + 1; k < y.length; k++) wy += d(y[i] as number, y[k] as number);
  const m = x.length;
  const n = y.length;
  return ((m * n) / (m + n)) * ((2 * across) / (m * n) - wx / ((m * (m - 1)) / 2) - wy / ((n * (n - 1)) / 2));
}

describe("E-Divisive change points", () => {
  it("finds a +8% and a −5% shift within ±2 points on 300 noisy points, for several seeds", () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const result = detectChangePoints(twoShifts(seed));
      const indices = result.changePoints.map((c) => c.index);
      expect(indices, `seed ${seed}`).toHaveLength(2);
      expect(Math.abs((indices[0] as number) - 100), `seed ${seed}: ${indices.join(",")}`).toBeLessThanOrEqual(2);
      expect(Math.abs((indices[1] as number) - 200), `seed ${seed}: ${indices.join(",")}`).toBeLessThanOrEqual(2);
      const [up, down] = result.changePoints;
      expect(up?.changePercent).toBeGreaterThan(6);
      expect(up?.changePercent).toBeLessThan(10);
      expect(down?.changePercent).toBeGreaterThan(-7);
      expect(down?.changePercent).toBeLessThan(-3);
      expect(up?.p).toBeLessThanOrEqual(0.05);
      expect(up?.beforeSegment).toEqual({ start: 0, end: indices[0] });
      expect(up?.afterSegment).toEqual({ start: indices[0], end: indices[1] });
      expect(down?.afterSegment).toEqual({ start: indices[1], end: 300 });
    }
  });

  it("finds no change point on 20 seeded pure-noise series at the default significance (0.01)", () => {
    const falseSplits = [];
    for (let seed = 100; seed < 120; seed++) {
      const found = detectChangePoints(noisy(200, () => 100, 0.015, seed)).changePoints;
      if (found.length > 0) falseSplits.push({ seed, at: found.map((c) => c.index) });
    }
    expect(falseSplits).toEqual([]);
  });

  it("is deterministic for a seed", () => {
    const series = twoShifts(7);
    expect(detectChangePoints(series, { seed: 42 })).toEqual(detectChangePoints(series, { seed: 42 }));
  });

  it("splits a 0/1 step at its middle for every size from minSegment up (MongoDB's sanity case)", () => {
    for (let cp = 5; cp <= 40; cp++) {
      const series = [...Array<number>(cp).fill(0), ...Array<number>(cp).fill(1)];
      expect(
        detectChangePoints(series).changePoints.map((c) => c.index),
        `cp = ${cp}`,
      ).toEqual([cp]);
    }
  });

  it("computes q̂ with running sums equal to the definition, for α = 1 and α = 0.5", () => {
    const series = noisy(30, (i) => (i < 12 ? 10 : 12), 0.1, 9);
    for (const alpha of [1, 0.5]) {
      const curve = qHatCurve(series, alpha);
      for (let tau = 2; tau <= series.length - 2; tau++) expect(curve[tau]).toBeCloseTo(bruteQHat(series, tau, alpha), 9);
    }
    const sums = splitSums([1, 4, 9]);
    expect(Array.from(sums.within)).toEqual([0, 0, 3, 3 + 8 + 5]);
    expect(Array.from(sums.withinAfter)).toEqual([3 + 8 + 5, 5, 0, 0]);
    expect(Array.from(sums.across)).toEqual([0, 3 + 8, 8 + 5, 0]);
  });

  it("matches MongoDB's signal-processing-algorithms (Otava's E-Divisive library): its statistic and its change points", () => {
    for (const c of reference.cases) {
      // The library divides within-sample sums by n² (all ordered pairs, zero diagonal) where
      // Matteson & James use C(n, 2); both come from the same running sums.
      const { within, withinAfter, across } = splitSums(c.values);
      const n = c.values.length;
      c.t.forEach((expected, tau) => {
        const m = tau;
        const k = n - tau;
        const e =
          m > 0 && k > 0
            ? (2 * (across[tau] as number)) / (m * k) -
              (m > 0 ? (2 * (within[tau] as number)) / (m * m) : 0) -
              (k > 0 ? (2 * (withinAfter[tau] as number)) / (k * k) : 0)
            : 0;
        const t = m > 0 && k > 0 ? ((m * k) / n) * e : 0;
        expect(close(t, expected, 1e-9, 1e-9), `${c.name}: τ = ${tau}: ${t} vs ${expected}`).toBe(true);
      });
      expect(
        detectChangePoints(c.values).changePoints.map((p) => p.index),
        c.name,
      ).toEqual(c.change_points);
    }
  });

  it("handles empty, too short and constant series", () => {
    expect(detectChangePoints([]).changePoints).toEqual([]);
    expect(detectChangePoints([1, 2, 3, 100, 100, 100]).changePoints).toEqual([]);
    expect(detectChangePoints(Array<number>(50).fill(3)).changePoints).toEqual([]);
  });

  it("refuses NaN, infinities and bad options with the offending field", () => {
    expect(() => detectChangePoints([1, 2, Number.NaN, 4])).toThrow(/series\[2\] must be a finite number \(got NaN\)/);
    expect(() => detectChangePoints([1, Number.POSITIVE_INFINITY])).toThrow(/series\[1\]/);
    expect(() => detectChangePoints([1, 2], { alpha: 2 })).toThrow(/alpha must be in \(0, 2\)/);
    expect(() => detectChangePoints([1, 2], { permutations: 0 })).toThrow(/permutations/);
    expect(() => detectChangePoints([1, 2], { significance: 1 })).toThrow(/significance/);
    expect(() => detectChangePoints([1, 2], { minSegment: 1 })).toThrow(/minSegment/);
  });

  it("recomputes only the tail when points are appended", () => {
    const series = twoShifts(3);
    const full = detectChangePoints(series);
    // A prefix that already holds both shifts: appending noise keeps them and their tests.
    const late = detectChangePoints(series.slice(0, 260));
    const grownLate = detectChangePoints(series, {}, late);
    expect(grownLate.changePoints.map((c) => c.index)).toEqual(full.changePoints.map((c) => c.index));
    expect(grownLate.changePoints.map((c) => c.p)).toEqual(late.changePoints.map((c) => c.p));
    expect(grownLate.changePoints[1]?.afterSegment).toEqual({ start: full.changePoints[1]?.index, end: 300 });
    expect(grownLate.changePoints[1]?.after).toBe(full.changePoints[1]?.after);
    // A prefix with only the first shift: the second is found in the tail.
    const early = detectChangePoints(series.slice(0, 150));
    expect(early.changePoints).toHaveLength(1);
    const grown = detectChangePoints(series, {}, early);
    const indices = grown.changePoints.map((c) => c.index);
    expect(indices[0]).toBe(early.changePoints[0]?.index);
    expect(indices).toHaveLength(2);
    expect(Math.abs((indices[1] as number) - 200)).toBeLessThanOrEqual(2);
    expect(grown.changePoints[0]?.afterSegment).toEqual({ start: indices[0], end: indices[1] });
    expect(() => detectChangePoints(series.slice(0, 100), {}, early)).toThrow(/covers 150 points/);
    expect(() => detectChangePoints(series, { seed: 2 }, early)).toThrow(/seed = 1, not 2/);
  });

  it("analyses 1,000 points (prints the time, asserts nothing about it)", () => {
    const series = noisy(1000, (i) => (i < 400 ? 100 : i < 700 ? 105 : 98), 0.015, 11);
    const started = performance.now();
    const result = detectChangePoints(series);
    console.log(
      `change points on 1,000 points: ${(performance.now() - started).toFixed(0)} ms, found at ${result.changePoints.map((c) => c.index).join(", ")}`,
    );
    expect(result.changePoints.length).toBeGreaterThanOrEqual(2);
  });
});
