// Whether a confirmation batch agrees with the breach it was dispatched for: its runs of the
// variant at the flagged commit, against the runs the rule compared the commit with, judged by the
// rule's own test — a % bound by the median's change against its bound, the Mann-Whitney window
// and change-point rules by the U test at their α (the comparison engine's direction-aware verdict).
import type { AlertRuleKind, MetricDirection } from "../db/generated/enums";
import { formatChange, formatMeasure, formatP } from "../display/display";
import { compareMetric } from "../stats/compare";
import { median } from "../stats/descriptive";

/** How much worse `percent` (raw sign) is by the metric's direction: positive = worse. */
export const worseBy = (percent: number, direction: MetricDirection) => (direction === "lower_is_better" ? percent : -percent);

/** Commits before the flagged one that a change-point rule's confirmation compares with (it has no window of its own). */
export const CHANGE_POINT_CONFIRMATION_COMMITS = 5;

export interface ConfirmationRule {
  kind: AlertRuleKind;
  alpha: number | null;
  thresholdPercent: number | null;
  windowSize: number | null;
}

export interface ConfirmationVerdict {
  agrees: boolean;
  /** In words, for the alert ("Confirmed by …" / "Not confirmed: …"). */
  text: string;
}

/**
 * `before`: per commit before the flagged one (oldest first), its runs' values; `confirming`: the
 * confirmation batch's values. Null when there is nothing to compare (no runs on a side).
 */
export function confirmationVerdict(
  rule: ConfirmationRule,
  metric: { key: string; unit: string; direction: MetricDirection },
  before: number[][],
  confirming: number[],
): ConfirmationVerdict | null {
  const baseline =
    rule.kind === "mann_whitney"
      ? before.flat().slice(-(rule.windowSize ?? 0))
      : before.slice(-(rule.kind === "percent_bound" ? (rule.windowSize ?? 0) : CHANGE_POINT_CONFIRMATION_COMMITS)).flat();
  if (baseline.length === 0 || confirming.length === 0) return null;
  const batch = `a confirmation batch of ${confirming.length} runs`;
  if (rule.kind === "percent_bound") {
    const was = median(baseline);
    const now = median(confirming);
    if (was === 0) return null;
    const percent = (now / was - 1) * 100;
    const bound = rule.thresholdPercent ?? Infinity;
    const agrees = worseBy(percent, metric.direction) > bound;
    const figures = `median ${formatMeasure(now, metric.unit)} against ${formatMeasure(was, metric.unit)} before (${formatChange(percent)})`;
    return agrees
      ? { agrees, text: `Confirmed by ${batch}: ${figures}, worse than the ${bound}% bound` }
      : { agrees, text: `Not confirmed: ${batch} had ${figures}, within the ${bound}% bound` };
  }
  const alpha = rule.alpha ?? 0.05;
  const result = compareMetric(
    { key: metric.key, unit: metric.unit, direction: metric.direction },
    [
      { name: "before", isBaseline: true, replicates: baseline },
      { name: "confirmation", isBaseline: false, replicates: confirming },
    ],
    { alpha },
  );
  const tested = result.comparisons[0];
  const now = result.variants.find((v) => !v.isBaseline)?.median;
  const was = result.variants.find((v) => v.isBaseline)?.median;
  const p = tested?.mannWhitney?.p ?? null;
  const figures = `median ${now === undefined ? "—" : formatMeasure(now, metric.unit)} against ${was === undefined ? "—" : formatMeasure(was, metric.unit)} of the ${baseline.length} runs before${tested?.change.percent == null ? "" : ` (${formatChange(tested.change.percent)})`}, Mann-Whitney p = ${p === null ? "—" : formatP(p)}`;
  const agrees = tested?.verdict === "worse";
  return agrees
    ? { agrees, text: `Confirmed by ${batch}: ${figures} ≤ α = ${alpha}` }
    : {
        agrees,
        text: `Not confirmed: ${batch} had ${figures} (${tested?.verdict === "insufficient_data" ? "too few runs to tell" : "not worse"} at α = ${alpha})`,
      };
}
