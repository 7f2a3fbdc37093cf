// The CI gate's summary in Markdown, for a pull-request comment or a GitHub job summary: a
// headline with the verdict, what the commit was compared with, and per variant the experiment
// report's own results tables (report-markdown.ts), so the two read alike. Pure.
import type { TCheckResult } from "../schemas/check";
import { formatChange } from "../display/display";
import { cell, metricResults } from "../reports/report-markdown";

type CheckFacts = Omit<TCheckResult, "markdown"> & { variants: string[] };

/** The verdict as a headline (also a batch's: server/regressions/batch-result.ts). */
export const verdictHeadline: Record<TCheckResult["verdict"], string> = {
  regression: "❌ Regression",
  improvement: "✅ Improvement",
  no_change: "✅ No change",
  insufficient_data: "⚠️ Not enough data for a verdict",
};

export function renderCheckMarkdown(check: CheckFacts): string {
  const short = check.commit.slice(0, 12);
  const lines = [`## Versus check: ${verdictHeadline[check.verdict]}`, ""];
  lines.push(`[${cell(check.experiment.title)}](${check.experiment.url}) · commit \`${short}\` against the previous commits on \`${cell(check.branch)}\``, "");

  const worse = check.metrics.filter((m) => m.verdict === "worse");
  const better = check.metrics.filter((m) => m.verdict === "better");
  const name = (m: TCheckResult["metrics"][number]) =>
    `\`${m.key}\`${check.variants.length > 1 ? ` (${cell(m.variant)})` : ""}${m.changePercent === null ? "" : ` ${formatChange(m.changePercent)}`}`;
  if (worse.length) lines.push(`- Worse: ${worse.map(name).join(", ")}`);
  if (better.length) lines.push(`- Better: ${better.map(name).join(", ")}`);
  const below = check.metrics.filter((m) => m.belowMinChange);
  if (below.length) lines.push(`- Significant but under ${check.minChangePercent}%, so no change: ${below.map(name).join(", ")}`);
  lines.push(
    `- Threshold: a metric is worse or better when its change is significant (p ≤ α) and at least ${check.minChangePercent}% either way; changes under ${check.minChangePercent}% count as no change.`,
  );
  const windowRuns = check.window.commits.reduce((sum, c) => sum + c.runs, 0);
  lines.push(
    check.window.commits.length === 0
      ? `- Baseline: no earlier commit on \`${cell(check.branch)}\` has runs, so nothing could be compared.`
      : `- Baseline: ${windowRuns} run(s) of the ${check.window.commits.length} commit(s) before it on \`${cell(check.branch)}\` (${check.window.commits.map((c) => `\`${c.commit.slice(0, 7)}\``).join(", ")}).`,
  );
  if (check.metrics.some((m) => m.verdict === "insufficient_data")) {
    lines.push(
      "- A verdict needs enough runs on both sides for the Mann-Whitney test to reach α (3 runs against 3 never can; 3 against 15 can): upload several repetitions per commit, or widen the window.",
    );
  }
  lines.push("");

  for (const [index, comparison] of check.comparisons.entries()) {
    if (check.variants.length > 1) lines.push(`### Variant ${cell(check.variants[index] ?? "")}`, "");
    for (const metric of comparison.metrics) lines.push(...metricResults(metric, comparison.baseline));
  }
  return `${lines
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trimEnd()}\n`;
}
