// One pass over a run's raw samples: exact n, mean, sample sd, min, max and sum, plus an
// HdrHistogram for the percentiles — a million samples are never sorted.
import { encodeHistogram, newHistogram, percentilesOf, scaleFor, type PercentileKey } from "./histogram";

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
  let mean = 0;
  let m2 = 0;
  let min = Infinity;
  let max = -Infinity;
  let sum = 0;
  let minPositive = Infinity;
  for (let i = 0; i < n; i++) {
    const x = samples[i] as number;
    // Welford's update: numerically stable mean and variance in one pass.
    const delta = x - mean;
    mean += delta / (i + 1);
    m2 += delta * (x - mean);
    sum += x;
    if (x < min) min = x;
    if (x > max) max = x;
    if (x > 0 && x < minPositive) minPositive = x;
  }
  const summary: SampleSummary = { n, mean, min, max, sum, ...(n > 1 ? { sd: Math.sqrt(m2 / (n - 1)) } : {}) };

  if (min >= 0) {
    const fits = preferredScale !== undefined && max * preferredScale <= Number.MAX_SAFE_INTEGER / 2;
    const scale = fits ? preferredScale : scaleFor(minPositive, max);
    const histogram = newHistogram();
    try {
      for (let i = 0; i < n; i++) histogram.recordValue(Math.round((samples[i] as number) * scale));
      Object.assign(summary, percentilesOf(histogram, scale), { histogram: encodeHistogram(histogram), histogramScale: scale });
    } finally {
      histogram.destroy();
    }
    // The histogram rounds to 3 significant digits; the extremes are known exactly.
    summary.p999 = Math.min(summary.p999 ?? max, max);
  } else if (n <= MAX_SORTED) {
    const sorted = Float64Array.from(samples).sort();
    const at = (p: number) => sorted[Math.min(n - 1, Math.max(0, Math.ceil((p / 100) * n) - 1))] as number;
    Object.assign(summary, { p50: at(50), p90: at(90), p95: at(95), p99: at(99), p999: at(99.9) });
  }
  return summary;
}
