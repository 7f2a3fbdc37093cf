// The distribution chart's buckets, from the runs' stored HdrHistograms (never raw samples).
// Each run's histogram is read in the metric's unit (recorded value ÷ its own histogramScale)
// and counted into buckets shared by every variant of the metric, so the variants' histograms
// and CDFs line up. Counting per run in the metric's unit equals merging the histograms, and
// stays right when uploads chose different scales (HdrHistogram's own add() would not).
import type { RecordedValues } from "../runs/histogram";
import type { TDistribution, TDistributionBinning } from "../schemas/charts";

export const DEFAULT_BUCKETS = 40;
/** A max/min ratio above this reads better on a log axis (long right tail, or values spanning decades). */
const LOG_SUGGESTED_FROM = 30;

export interface VariantRecorded {
  variant: string;
  runs: RecordedValues[];
}

function linearEdges(low: number, high: number, buckets: number): number[] {
  return Array.from({ length: buckets + 1 }, (_, i) => (i === buckets ? high : low + ((high - low) * i) / buckets));
}

function logEdges(low: number, high: number, buckets: number): number[] {
  const ratio = Math.log(high / low);
  return Array.from({ length: buckets + 1 }, (_, i) => (i === buckets ? high : low * Math.exp((ratio * i) / buckets)));
}

/**
 * A share or cumulative share to six significant digits: more than a chart a few hundred pixels
 * tall can show (the exact counts travel beside them), where full doubles made a third of the
 * experiment page's payload — 40 per bucketing, variant and metric — for every view to render.
 */
const fraction = (value: number) => Number(value.toPrecision(6));

/** A range a bucket can have width in, even when every value is the same. */
function widen(min: number, max: number, scale: "linear" | "log"): [number, number] {
  if (max > min) return [min, max];
  if (scale === "log") return [min / 1.05, max * 1.05];
  const pad = Math.abs(min) * 0.05 || 0.5;
  return [min - pad, max + pad];
}

function bin(variants: readonly VariantRecorded[], edges: number[], scale: "linear" | "log"): TDistributionBinning {
  const buckets = edges.length - 1;
  const low = edges[0] as number;
  const high = edges[buckets] as number;
  const span = scale === "log" ? Math.log(high / low) : high - low;
  const indexOf = (value: number) => {
    const position = scale === "log" ? Math.log(value / low) / span : (value - low) / span;
    return Math.min(buckets - 1, Math.max(0, Math.floor(position * buckets)));
  };
  return {
    scale,
    edges,
    variants: variants.map(({ variant, runs }) => {
      const counts = new Array<number>(buckets).fill(0);
      for (const run of runs) {
        run.values.forEach((value, i) => {
          const at = indexOf(value);
          counts[at] = (counts[at] as number) + (run.counts[i] as number);
        });
      }
      const total = counts.reduce((a, b) => a + b, 0);
      let below = 0;
      // The last bucket is set to exactly 1: summing fractions would leave 0.9999999999999999.
      const cumulative = counts.map((c, i) => (i === buckets - 1 ? 1 : fraction((below += c) / total)));
      return { variant, total, counts, shares: counts.map((c) => fraction(c / total)), cumulative };
    }),
  };
}

/** Shared linear (and, for positive values, log-spaced) buckets; null when nothing was recorded. */
export function distributionOf(variants: readonly VariantRecorded[], notes: string[], buckets = DEFAULT_BUCKETS): TDistribution | null {
  const withData = variants.filter((v) => v.runs.some((run) => run.counts.some((c) => c > 0)));
  if (withData.length === 0) return null;
  let min = Infinity;
  let max = -Infinity;
  for (const { runs } of withData) {
    for (const run of runs) {
      for (const value of run.values) {
        if (value < min) min = value;
        if (value > max) max = value;
      }
    }
  }
  const linear = bin(withData, linearEdges(...widen(min, max, "linear"), buckets), "linear");
  const log = min > 0 ? bin(withData, logEdges(...widen(min, max, "log"), buckets), "log") : null;
  return { linear, log, suggestedScale: log && max / min > LOG_SUGGESTED_FROM ? "log" : "linear", notes };
}
