// One pass over a run's raw samples: exact n, mean, sample sd, min, max and sum, plus an
// HdrHistogram for the percentiles — a million samples are never sorted.
import { PERCENTILES, samplesHistogram, type PercentileKey } from "./histogram";

export interface SampleSummary extends Partial<Record<PercentileKey, number>> {
  n: number;
  mean: number;
  /** Sample standard deviation (divides by n − 1); absent for a single sample. */
  sd?: number;
  min: number;
  max: number;
  sum: number;
  histogram?: Buffer;
  histogramScale?: number;
}

/** Percentiles of negative values cannot go in an HdrHistogram; sort those, but only this many. */
const MAX_SORTED = 100_000;

/**
 * `preferredScale`: the scale earlier runs of the same metric used. Histograms merge only at
 * one scale, so it is kept whenever the values fit it.
 */
export function summarizeSamples(samples: ArrayLike<number>, preferredScale?: number): SampleSummary {
  const n = samples.length;
  let min = Infinity;
  let max = -Infinity;
  let minPositive = Infinity;
  for (let i = 0; i < n; i++) {
    const x = samples[i] as number;
    if (x < min) min = x;
    if (x > max) max = x;
    if (x > 0 && x < minPositive) minPositive = x;
  }
  const { mean, sd, sum } = moments(samples, Math.max(Math.abs(min), Math.abs(max)));
  const summary: SampleSummary = { n, mean, min, max, sum, ...(sd !== undefined ? { sd } : {}) };

  if (min >= 0) {
    Object.assign(summary, samplesHistogram(samples, { minPositive, max }, preferredScale));
    // The histogram gives a percentile as an end of its range of equivalent values (3 significant
    // digits), which can lie just outside the exact extremes: a percentile is a value of the set.
    for (const key of Object.keys(PERCENTILES) as PercentileKey[]) summary[key] = Math.min(max, Math.max(min, summary[key] ?? min));
  } else if (n <= MAX_SORTED) {
    const sorted = Float64Array.from(samples).sort();
    const at = (p: number) => sorted[Math.min(n - 1, Math.max(0, Math.ceil((p / 100) * n) - 1))] as number;
    Object.assign(summary, { p50: at(50), p90: at(90), p95: at(95), p99: at(99), p999: at(99.9) });
  }
  return summary;
}

/**
 * Mean, sample sd and sum in one pass (Welford's update), on the samples multiplied by a power of
 * two that brings the largest magnitude near 1. Multiplying by a power of two is exact, so
 * ordinary values give the very figures the unscaled pass gives; values near the ends of the
 * float64 range no longer overflow on the way — a running sum of [1.7e308, 1.7e308, -1.7e308]
 * or the square of a deviation of 1e200 — nor underflow (deviations of 1e-200). A figure that
 * itself lies beyond the range (the sum of [1e308, 1e308]) comes out infinite, for the caller
 * to refuse.
 */
function moments(samples: ArrayLike<number>, maxAbs: number): { mean: number; sd?: number; sum: number } {
  const n = samples.length;
  // ±1000 keeps the factor itself finite (2^1074 is not) while still clearing both ends.
  const exponent = maxAbs > 0 ? Math.min(1000, Math.max(-1000, Math.floor(Math.log2(maxAbs)))) : 0;
  const scale = 2 ** -exponent;
  let mean = 0;
  let m2 = 0;
  let sum = 0;
  for (let i = 0; i < n; i++) {
    const x = (samples[i] as number) * scale;
    const delta = x - mean;
    mean += delta / (i + 1);
    m2 += delta * (x - mean);
    sum += x;
  }
  return { mean: mean / scale, sum: sum / scale, ...(n > 1 ? { sd: Math.sqrt(m2 / (n - 1)) / scale } : {}) };
}
