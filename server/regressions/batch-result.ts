// The verdict of a finished batch (GET /api/v1/batches/{id}, `versus run`): the experiment's
// comparison on the batch's own runs only — every candidate variant against the baseline, the
// engine the experiment page uses — with the CI gate's minimum change (min-change.ts), so a batch
// and `versus check` call the same figures regression alike. The Markdown reuses the report's
// tables, as the CI gate's does.
import type { Db } from "../db/client";
import type { TBatchStatus } from "../schemas/batch-runs";
import type { TCheckMetric } from "../schemas/check";
import type { TComparison } from "../schemas/comparison";
import { getComparison } from "../comparison/comparison";
import { formatChange } from "../display/display";
import { overallVerdict } from "./check";
import { verdictHeadline } from "./check-markdown";
import { applyMinChange } from "./min-change";
import { cell, metricResults } from "../reports/report-markdown";

type BatchResult = NonNullable<TBatchStatus["result"]>;

export async function batchResult(
  db: Db,
  projectId: string,
  batch: { id: string; experimentId: string; commit: string | null; branch: string | null; url: string },
  minChangePercent: number,
): Promise<BatchResult> {
  const compared = await getComparison(db, { projectId }, batch.experimentId, undefined, { batchId: batch.id });
  const metrics: TCheckMetric[] = [];
  const comparison: TComparison = {
    ...compared,
    metrics: compared.metrics.map((entry) => {
      if (!entry.comparison) return entry;
      const tested = entry.comparison.comparisons.map((candidate) => {
        const { candidate: judged, belowMinChange } = applyMinChange(candidate, minChangePercent);
        const stats = (name: string) => entry.comparison?.variants.find((v) => v.variant === name)?.median ?? null;
        metrics.push({
          variant: judged.candidate,
          key: entry.key,
          label: entry.label,
          unit: entry.unit,
          direction: entry.direction,
          aggregation: entry.aggregation,
          verdict: judged.verdict,
          changePercent: judged.change.percent,
          median: stats(judged.candidate),
          baselineMedian: stats(judged.baseline),
          reason: judged.reason,
          belowMinChange,
        });
        return judged;
      });
      return { ...entry, comparison: { ...entry.comparison, comparisons: tested } };
    }),
  };
  const verdict = overallVerdict(metrics);
  return {
    verdict,
    minChangePercent,
    metrics,
    comparison,
    markdown: renderBatchMarkdown({ ...batch, title: compared.experiment.title }, verdict, minChangePercent, metrics, comparison),
  };
}

function renderBatchMarkdown(
  batch: { title: string; url: string; commit: string | null; branch: string | null },
  verdict: BatchResult["verdict"],
  minChangePercent: number,
  metrics: TCheckMetric[],
  comparison: TComparison,
): string {
  const at = batch.commit ? ` · commit \`${batch.commit.slice(0, 12)}\`${batch.branch ? ` on \`${cell(batch.branch)}\`` : ""}` : "";
  const lines = [
    `## Versus run: ${verdictHeadline[verdict]}`,
    "",
    `[${cell(batch.title)}](${batch.url})${at} · each variant against ${cell(comparison.baseline)}, on this batch's runs`,
    "",
  ];
  const name = (m: TCheckMetric) => `\`${m.key}\` (${cell(m.variant)})${m.changePercent === null ? "" : ` ${formatChange(m.changePercent)}`}`;
  const worse = metrics.filter((m) => m.verdict === "worse");
  const better = metrics.filter((m) => m.verdict === "better");
  const below = metrics.filter((m) => m.belowMinChange);
  if (worse.length) lines.push(`- Worse: ${worse.map(name).join(", ")}`);
  if (better.length) lines.push(`- Better: ${better.map(name).join(", ")}`);
  if (below.length) lines.push(`- Significant but under ${minChangePercent}%, so no change: ${below.map(name).join(", ")}`);
  lines.push(`- Threshold: a metric is worse or better when its change is significant (p ≤ α) and at least ${minChangePercent}% either way.`, "");
  for (const metric of comparison.metrics) lines.push(...metricResults(metric, comparison.baseline));
  return `${lines
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trimEnd()}\n`;
}
