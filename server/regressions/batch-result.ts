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
import { formatChange, formatMeasure } from "../display/display";
import { overallVerdict } from "./check";
import { verdictHeadline } from "./check-markdown";
import { applyMinChange } from "./min-change";
import { cell, metricResults } from "../reports/report-markdown";
import type { TNoiseFloorEntry } from "../schemas/batch-runs";
import { latestNoiseFloor, noiseEntries, noiseOfBatch } from "../comparison/noise-floor";

type BatchResult = NonNullable<TBatchStatus["result"]>;

export async function batchResult(
  db: Db,
  projectId: string,
  batch: { id: string; experimentId: string; commit: string | null; branch: string | null; url: string; noise: boolean; createdAt: Date },
  minChangePercent: number,
): Promise<BatchResult> {
  const compared = await getComparison(db, { projectId }, batch.experimentId, undefined, { batchId: batch.id });
  const experiment = await db.experiment.findUniqueOrThrow({ where: { id: batch.experimentId }, select: { alpha: true, measuredRuns: true } });
  if (batch.noise) {
    // The A/A batch itself: each agent's spread, and what a comparison of the experiment's usual run count can see there.
    const noise = noiseEntries(await noiseOfBatch(db, batch.experimentId, batch.id, batch.createdAt, experiment.alpha), {
      runs: experiment.measuredRuns,
      minChangePercent,
    });
    return {
      verdict: "no_change",
      minChangePercent,
      metrics: [],
      comparison: compared,
      noise,
      markdown: renderNoiseMarkdown({ ...batch, title: compared.experiment.title }, noise, minChangePercent),
    };
  }
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
  const floor = await latestNoiseFloor(db, batch.experimentId);
  const agents = await db.job.findMany({ where: { batchId: batch.id, agentId: { not: null } }, distinct: ["agentId"], select: { agentId: true } });
  const baselineRuns = comparison.variants.find((v) => v.isBaseline)?.runs ?? 0;
  const noise = floor ? noiseEntries(floor, { runs: baselineRuns, agentIds: agents.map((a) => a.agentId as string), minChangePercent }) : [];
  return {
    verdict,
    minChangePercent,
    metrics,
    comparison,
    noise,
    markdown: renderBatchMarkdown({ ...batch, title: compared.experiment.title }, verdict, minChangePercent, metrics, comparison, noise),
  };
}

const percentText = (value: number | null) => (value === null ? "—" : `±${value.toFixed(value < 10 ? 2 : 1)}%`);

function renderNoiseMarkdown(batch: { title: string; url: string }, noise: TNoiseFloorEntry[], minChangePercent: number): string {
  const lines = [`## Versus noise floor`, "", `[${cell(batch.title)}](${batch.url}) · the baseline against itself (an A/A batch), per agent`, ""];
  if (noise.length === 0) lines.push("_No run of the batch has a value of the experiment's metrics._");
  else {
    lines.push(
      `| Metric | Agent | Runs | Median | Run-to-run sd | Smallest change seen with N runs a side | Runs a side to see ±${minChangePercent}% |`,
      "|---|---|--:|--:|--:|--:|--:|",
    );
    for (const entry of noise) {
      lines.push(
        `| \`${cell(entry.metric)}\` | ${cell(entry.agent)} | ${entry.noiseRuns} | ${formatMeasure(entry.median, entry.unit)} | ${entry.sd === null ? "—" : `${formatMeasure(entry.sd, entry.unit)} (${percentText(entry.spreadPercent)})`} | ${percentText(entry.mdePercent)} with ${entry.runs} | ${entry.runsForMinChange ?? "—"} |`,
      );
    }
  }
  return `${lines.join("\n")}\n`;
}

function renderBatchMarkdown(
  batch: { title: string; url: string; commit: string | null; branch: string | null },
  verdict: BatchResult["verdict"],
  minChangePercent: number,
  metrics: TCheckMetric[],
  comparison: TComparison,
  noise: TNoiseFloorEntry[],
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
  lines.push(`- Threshold: a metric is worse or better when its change is significant (p ≤ α) and at least ${minChangePercent}% either way.`);
  for (const entry of noise) {
    const seen =
      entry.mdePercent === null
        ? `${entry.runs} runs a side cannot detect any change`
        : `changes under ${percentText(entry.mdePercent)} cannot be seen with ${entry.runs} runs here`;
    const needed =
      entry.runsForMinChange !== null && entry.runsForMinChange > entry.runs ? ` (${entry.runsForMinChange} runs a side would see ±${minChangePercent}%)` : "";
    lines.push(`- Noise floor of \`${cell(entry.metric)}\` on ${cell(entry.agent)} (A/A batch of ${entry.measuredAt.slice(0, 10)}): ${seen}${needed}.`);
  }
  const floorOf = (key: string) => Math.max(...noise.filter((entry) => entry.metric === key).map((entry) => entry.mdePercent ?? Infinity));
  const hidden = metrics.filter((m) => m.verdict === "no_change" && m.changePercent !== null && Math.abs(m.changePercent) < floorOf(m.key));
  if (hidden.length) lines.push(`- Under the noise floor, too small to tell from noise (rather than no change): ${hidden.map(name).join(", ")}`);
  lines.push("");
  // The floor is said above, per agent with the runs a side --min-change needs: not again under each table.
  for (const metric of comparison.metrics) lines.push(...metricResults({ ...metric, noiseFloor: undefined }, comparison.baseline));
  return `${lines
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trimEnd()}\n`;
}
