// How the Markdown report and the CSV summary word and round the comparison's figures. The
// change and p use the statistics engine's own formatting (server/stats/format.ts), so the
// report reads like the verdict reasons it quotes ("−4.37%", "p = 0.032").
import type { TComparison } from "../schemas/comparison";
import { directionLabel, formatMeanSd as meanSdFigures, formatMeasure, formatMedianFigures, formatP, formatPercent, formatPercentile, verdictLabel } from "../display";

type MetricComparison = NonNullable<TComparison["metrics"][number]["comparison"]>;
export type CandidateComparison = MetricComparison["comparisons"][number];
export type VariantStats = MetricComparison["variants"][number];

export { directionLabel, formatMeasure, formatP, formatPercent, verdictLabel };

/** "3.019 ms [2.947, 3.436]": the median with its distribution-free interval. */
export function formatMedian(stats: VariantStats, unit: string): string {
  if (stats.median === null) return "—";
  const figures = formatMedianFigures(stats);
  return `${figures.median} ${unit}${figures.low !== null ? ` [${figures.low}, ${figures.high}]` : ""}`;
}

/** "3.08 ± 0.20 ms" (sample sd); just the mean when one run gives no sd. */
export function formatMeanSd(stats: VariantStats, unit: string): string {
  if (stats.mean === null) return "—";
  const figures = meanSdFigures(stats.mean, stats.sd);
  return figures.sd === null ? `${figures.mean} ${unit}` : `${figures.mean} ± ${figures.sd} ${unit}`;
}

/** "2.947 … 3.436 ms": the lowest and highest run, at the median's decimal place. */
export function formatMinMax(stats: VariantStats, unit: string): string {
  if (stats.min === null || stats.max === null) return "—";
  return `${formatMedianFigures(stats).range} ${unit}`;
}

/** "2.75 / 15.7 / 41.1 ms": p50, p90 and p99 merged from the runs' histograms. */
export function formatMergedPercentiles(stats: VariantStats, unit: string): string {
  const p = stats.percentiles;
  return p ? `${formatPercentile(p.p50)} / ${formatPercentile(p.p90)} / ${formatPercentile(p.p99)} ${unit}` : "—";
}

/**
 * "−4.37% (better) [−9.62%, −0.97%]": the change of the median with its interval, and — only
 * when the test found a difference — which way that is for this metric's direction.
 */
export function formatChange(candidate: CandidateComparison): string {
  const { percent, percentCi } = candidate.change;
  if (percent === null) return "—";
  const decided = candidate.verdict === "better" || candidate.verdict === "worse" ? ` (${candidate.verdict})` : "";
  const ci = percentCi ? ` [${formatPercent(percentCi.low)}, ${formatPercent(percentCi.high)}]` : "";
  return `${formatPercent(percent)}${decided}${ci}`;
}

/** The p-value the verdict used: Holm-adjusted when several candidates were tested. */
export function verdictP(candidate: CandidateComparison): number | null {
  return candidate.pAdjusted ?? candidate.mannWhitney?.p ?? null;
}

export function formatVerdict(candidate: CandidateComparison): string {
  return `${verdictLabel[candidate.verdict]}${candidate.evidence === "weak" ? " (weak evidence)" : ""}`;
}
