// The percentile chart's figures for one variant. When the comparison merged the runs'
// HdrHistograms, those are the figures (the table's own: one source of truth). Runs imported from
// tools that print percentiles but no samples (wrk, k6's summary, a published table) have no
// histogram, only the p50 … p99.9 stored with each run; then each level is the median across the
// variant's runs of that run's value. The two are different estimates (a percentile of all samples
// vs a typical run's percentile), so every figure says which one it is.
import type { TPercentileFigure } from "../schemas/charts";
import { median } from "../stats/descriptive";
import type { VariantStats } from "../stats/schemas";

export const PERCENTILE_LEVELS = ["p50", "p90", "p95", "p99", "p999"] as const;
export type StoredPercentiles = Record<(typeof PERCENTILE_LEVELS)[number], number | null>;

/** `runs` are the variant's stored results for the metric; null when there is nothing to draw. */
export function percentileFigure(stats: VariantStats, runs: readonly StoredPercentiles[]): TPercentileFigure | null {
  const merged = stats.percentiles;
  if (merged) {
    return {
      variant: stats.variant,
      source: "histograms",
      runs: stats.n,
      count: merged.count,
      p50: merged.p50,
      p90: merged.p90,
      p95: merged.p95,
      p99: merged.p99,
      p999: merged.p999,
    };
  }
  const reporting = runs.filter((run) => PERCENTILE_LEVELS.some((level) => run[level] !== null));
  if (reporting.length === 0) return null;
  // Only the runs that printed a level count towards it; a level none printed stays null (a gap,
  // never a zero).
  const level = (key: (typeof PERCENTILE_LEVELS)[number]) => {
    const values = reporting.flatMap((run) => (run[key] === null ? [] : [run[key]]));
    return values.length > 0 ? median(values) : null;
  };
  return {
    variant: stats.variant,
    source: "run summaries",
    runs: reporting.length,
    count: null,
    p50: level("p50"),
    p90: level("p90"),
    p95: level("p95"),
    p99: level("p99"),
    p999: level("p999"),
  };
}
