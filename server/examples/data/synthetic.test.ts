// The generators behind the synthetic example data: seeded (same numbers every time) and exact
// (the summary of what they produce is the published figure, to the printed precision).
import { describe, expect, it } from "vitest";
import { seededRandom } from "./random";
import { roundKeepingSum, samplesWithMean, seriesInRange, seriesWithMeanAndMax, seriesWithSum, standardDeviation } from "./synthetic";

const mean = (values: readonly number[]) => values.reduce((a, b) => a + b, 0) / values.length;
const decimalsOf = (value: number) => (String(value).split(".")[1] ?? "").length;

describe("seededRandom", () => {
  it("gives the same stream for the same seed and another for another seed", () => {
    const draw = (seed: number) => {
      const random = seededRandom(seed);
      return [random.uniform(), random.normal(), random.normal(), random.logNormal(0, 1)];
    };
    expect(draw(7)).toEqual(draw(7));
    expect(draw(7)).not.toEqual(draw(8));
  });

  it("draws standard normals", () => {
    const random = seededRandom(1);
    const values = Array.from({ length: 20_000 }, () => random.normal());
    expect(mean(values)).toBeCloseTo(0, 1);
    expect(standardDeviation(values)).toBeCloseTo(1, 1);
  });
});

describe("roundKeepingSum", () => {
  it("rounds to the resolution and hands the residue to the values that lost the most", () => {
    // Plain rounding gives 1 + 1 + 1 = 3; the sum must be 4: the value rounded down the most goes up.
    expect(roundKeepingSum([1.4, 1.3, 1.2], 0, 4)).toEqual([2, 1, 1]);
    // 2 + 2 + 2 = 6, the sum must be 5: the value rounded up the most (1.6) goes down.
    expect(roundKeepingSum([1.6, 1.7, 1.8], 0, 5)).toEqual([1, 2, 2]);
  });

  it("leaves kept values alone and respects a ceiling", () => {
    expect(roundKeepingSum([10, 9.4, 9.4], 0, 30, { keep: new Set([0]), ceiling: 10 })).toEqual([10, 10, 10]);
    expect(() => roundKeepingSum([10, 9.4, 9.4], 0, 31, { keep: new Set([0]), ceiling: 10 })).toThrow(/cannot round/);
  });
});

describe("samplesWithMean", () => {
  it("reproduces a published mean exactly at the printed precision, all values positive", () => {
    const samples = samplesWithMean(seededRandom(1), { n: 100, mean: 114.11, sigma: 0.2, decimals: 3 });
    expect(samples).toHaveLength(100);
    expect(Math.abs(mean(samples) - 114.11)).toBeLessThan(1e-9);
    expect(samples.every((s) => s > 0 && decimalsOf(s) <= 3)).toBe(true);
  });

  it("reproduces a published mean and standard deviation (sample or population)", () => {
    const sample = samplesWithMean(seededRandom(2), { n: 50, mean: 20, sd: 3, sigma: 0.3, decimals: 4 });
    expect(mean(sample)).toBeCloseTo(20, 9);
    expect(standardDeviation(sample, "sample")).toBeCloseTo(3, 3);
    const population = samplesWithMean(seededRandom(3), { n: 5, mean: 190.34, sd: 0.004, sdKind: "population", sigma: 0.5, decimals: 6 });
    expect(mean(population)).toBeCloseTo(190.34, 9);
    expect(standardDeviation(population, "population").toFixed(4)).toBe("0.0040");
  });

  it("keeps every value inside a published range", () => {
    const times = samplesWithMean(seededRandom(4), { n: 5, mean: 5, sd: 0.6, sigma: 0.3, decimals: 2, within: [4, 6] });
    expect(mean(times)).toBeCloseTo(5, 9);
    expect(times.every((t) => t >= 4 && t <= 6)).toBe(true);
  });

  it("is deterministic", () => {
    const options = { n: 20, mean: 3, sigma: 0.3, decimals: 3 };
    expect(samplesWithMean(seededRandom(9), options)).toEqual(samplesWithMean(seededRandom(9), options));
  });

  it("refuses to produce values below the floor", () => {
    // A huge sd around a small mean cannot stay positive.
    expect(() => samplesWithMean(seededRandom(5), { n: 100, mean: 1, sd: 10, sigma: 0.5, decimals: 3 })).toThrow(/not above 0|fit/);
  });
});

describe("time series", () => {
  it("seriesWithMeanAndMax: exact average and peak, whole numbers, above the floor", () => {
    const tps = seriesWithMeanAndMax(seededRandom(4), { n: 300, mean: 662, max: 921, floor: 200, sigma: 0.12, phi: 0.7, decimals: 0 });
    expect(tps).toHaveLength(300);
    expect(mean(tps)).toBeCloseTo(662, 9);
    expect(Math.max(...tps)).toBe(921);
    expect(Math.min(...tps)).toBeGreaterThan(200);
    expect(tps.every(Number.isInteger)).toBe(true);
  });

  it("seriesInRange: lowest and highest points are the published range", () => {
    const tps = seriesInRange(seededRandom(6), { n: 300, min: 400, max: 538, sigma: 0.1, phi: 0.7, decimals: 0 });
    expect(Math.min(...tps)).toBe(400);
    expect(Math.max(...tps)).toBe(538);
  });

  it("seriesWithSum: buckets add up to the total", () => {
    const perSecond = seriesWithSum(seededRandom(2), { n: 31, total: 77_711, sigma: 0.04, phi: 0.5, decimals: 0 });
    expect(perSecond).toHaveLength(31);
    expect(perSecond.reduce((a, b) => a + b, 0)).toBe(77_711);
    expect(perSecond.every((v) => Number.isInteger(v) && v > 0)).toBe(true);
  });
});
