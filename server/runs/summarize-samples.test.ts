// The one-pass summary of raw samples at the edges of the float64 range: figures that can be
// represented come out exact (no intermediate overflow or underflow), figures that cannot come
// out non-finite for prepare-metric.ts to refuse, and every input terminates.
import { describe, expect, it } from "vitest";
import { lognormalSamples } from "../stats/prng";
import { scaleFor } from "./histogram";
import { summarizeSamples } from "./summarize-samples";

/** Two-pass reference figures, for values whose squares and sums do not overflow. */
function reference(values: number[]) {
  const n = values.length;
  const mean = values.reduce((a, b) => a + b, 0) / n;
  const sd = Math.sqrt(values.reduce((a, x) => a + (x - mean) ** 2, 0) / (n - 1));
  return { mean, sd };
}

const rel = (actual: number | undefined, expected: number) => Math.abs((actual as number) - expected) / Math.abs(expected);

describe("summarizeSamples near the largest doubles", () => {
  it("the mean of [1e308, 1e308] is 1e308, not Infinity; their sum is beyond float64", () => {
    const s = summarizeSamples([1e308, 1e308]);
    expect(s.mean).toBe(1e308);
    expect(s.sd).toBe(0);
    expect(s.sum).toBe(Infinity);
  });

  it("[1.7e308, 1.7e308, -1.7e308]: a finite mean and sum although the running sum overflows", () => {
    const s = summarizeSamples([1.7e308, 1.7e308, -1.7e308]);
    expect(rel(s.mean, 1.7e308 / 3)).toBeLessThan(1e-15);
    expect(s.sum).toBe(1.7e308);
    // The sample sd, 1.96e308, cannot be represented.
    expect(s.sd).toBe(Infinity);
    expect([s.min, s.max]).toEqual([-1.7e308, 1.7e308]);
  });

  it("an sd whose square would overflow is still exact: [1e200, 3e200] and [1e300, 2e300]", () => {
    expect(rel(summarizeSamples([1e200, 3e200]).sd, Math.SQRT2 * 1e200)).toBeLessThan(1e-15);
    expect(rel(summarizeSamples([1e300, 2e300]).sd, Math.SQRT1_2 * 1e300)).toBeLessThan(1e-15);
  });

  it("an sd whose square would underflow is still exact: [1e-200, 3e-200]", () => {
    expect(rel(summarizeSamples([1e-200, 3e-200]).sd, Math.SQRT2 * 1e-200)).toBeLessThan(1e-15);
  });
});

describe("summarizeSamples of tiny values", () => {
  it("terminates on subnormal samples and gives finite figures", () => {
    for (const samples of [
      [5e-324, 1e-300],
      [1e-310, 2e-310],
      [1e-306, 1],
    ]) {
      const s = summarizeSamples(samples);
      for (const [figure, value] of Object.entries(s))
        if (typeof value === "number") expect(Number.isFinite(value), `${figure} of ${samples.join(", ")}`).toBe(true);
      expect(s.histogramScale === undefined || s.histogramScale > 0).toBe(true);
    }
  });

  it("scaleFor is a finite positive power of ten for any positive range", () => {
    for (const [minPositive, max] of [
      [5e-324, 1e-300],
      [1e-310, 1e308],
      [1e-306, 1e-306],
      [1e300, 1.7e308],
    ] as const) {
      const scale = scaleFor(minPositive, max);
      expect(Number.isFinite(scale) && scale > 0, `${minPositive}..${max}: ${scale}`).toBe(true);
      expect(max * scale).toBeLessThanOrEqual(Number.MAX_SAFE_INTEGER / 2);
    }
  });
});

describe("summarizeSamples of ordinary measurements", () => {
  it("matches the two-pass figures to 1e-12 and sums exactly as added", () => {
    const samples = lognormalSamples(10_000, { median: 12, sigma: 0.45, seed: 7 });
    const s = summarizeSamples(samples);
    const expected = reference(samples);
    expect(rel(s.mean, expected.mean)).toBeLessThan(1e-12);
    expect(rel(s.sd, expected.sd)).toBeLessThan(1e-12);
    let sum = 0;
    for (const x of samples) sum += x;
    expect(s.sum).toBe(sum);
  });

  it("keeps the resolution of a latency histogram: 3 significant digits from the smallest value", () => {
    expect(scaleFor(0.0123, 95)).toBe(1e5);
    expect(scaleFor(12, 9000)).toBe(100);
  });
});
