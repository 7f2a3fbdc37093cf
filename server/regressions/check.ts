// The CI gate: one commit's runs against the runs of the commits before it on a branch, per
// variant and metric, with the comparison engine the experiment page uses (compareMetric:
// Mann-Whitney on per-run values, Hodges–Lehmann CI of the change, direction-aware verdict), then
// the minimum change (min-change.ts): significant and at least minChange % either way. The window
// is the baseline, the commit the one candidate; the Markdown summary reuses the report's tables
// (check-markdown.ts).
import { experimentUrl } from "../http/public-origin";
import type { Db } from "../db/client";
import { AppError } from "../core/errors";
import type { TComparison } from "../schemas/comparison";
import type { TCheckMetric, TCheckQuery, TCheckResult, TCheckVerdict } from "../schemas/check";
import { variantData } from "../comparison/comparison";
import { compareMetric, describeMetric } from "../stats/compare";
import { renderCheckMarkdown } from "./check-markdown";
import { loadCommitWindow, type WindowResult } from "./commit-window";
import { applyMinChange } from "./min-change";

export interface CheckScope {
  projectId: string;
  projectSlug: string;
  /** Absolute origin for the experiment's link. */
  baseUrl: string;
}

/** The experiment a REST path names (slug or id), inside the caller's project. */
export async function experimentForCheck(db: Db, projectId: string, slugOrId: string) {
  const experiment = await db.experiment.findFirst({
    where: { projectId, OR: [{ slug: slugOrId }, { id: slugOrId }] },
    include: { variants: { orderBy: { position: "asc" } }, metrics: { orderBy: { position: "asc" } } },
  });
  if (!experiment) throw new AppError("NOT_FOUND", `No experiment "${slugOrId}" in this project`);
  return experiment;
}

export type CheckedExperiment = Awaited<ReturnType<typeof experimentForCheck>>;

export function variantNamed(experiment: CheckedExperiment, name: string) {
  const variant = experiment.variants.find((v) => v.name === name);
  if (!variant) {
    throw new AppError("UNPROCESSABLE", `No variant "${name}"; the variants are ${experiment.variants.map((v) => `"${v.name}"`).join(", ")}`, {
      fieldIssues: [{ path: ["variant"], message: "not a variant of this experiment" }],
    });
  }
  return variant;
}

export async function checkCommit(db: Db, scope: CheckScope, slugOrId: string, query: TCheckQuery): Promise<TCheckResult> {
  return checkExperimentCommit(db, scope, await experimentForCheck(db, scope.projectId, slugOrId), query);
}

export async function checkExperimentCommit(db: Db, scope: CheckScope, experiment: CheckedExperiment, query: TCheckQuery): Promise<TCheckResult> {
  const only = query.variant === undefined ? undefined : variantNamed(experiment, query.variant);
  const window = await loadCommitWindow(db, experiment.id, { commit: query.commit, branch: query.branch, window: query.window, variantId: only?.id });
  const short = window.commit.slice(0, 12);
  const baselineName = `${query.branch}: ${window.baselineCommits.length === 1 ? "1 commit" : `${window.baselineCommits.length} commits`} before`;

  const comparisons: TComparison[] = [];
  const metrics: TCheckMetric[] = [];
  const checked = experiment.variants.filter((v) => (only ? v.id === only.id : window.candidate.some((r) => r.variantId === v.id)));
  for (const variant of checked) {
    const of = (rows: WindowResult[], metricId: string) => rows.filter((r) => r.variantId === variant.id && r.metricId === metricId);
    const runs = (rows: WindowResult[]) => new Set(rows.filter((r) => r.variantId === variant.id).map((r) => r.runId)).size;
    const entries: TComparison["metrics"] = [];
    for (const metric of experiment.metrics) {
      const candidateRows = of(window.candidate, metric.id);
      if (candidateRows.length === 0) continue;
      const baselineRows = of(window.baseline, metric.id);
      const spec = { key: metric.key, unit: metric.unit, direction: metric.direction };
      const data = [
        variantData(baselineName, true, baselineRows, metric.aggregation, null),
        variantData(short, false, candidateRows, metric.aggregation, null),
      ];
      const describe = { key: metric.key, label: metric.label, unit: metric.unit, direction: metric.direction, aggregation: metric.aggregation };
      if (baselineRows.length === 0) {
        const reason =
          window.baselineCommits.length === 0
            ? `no earlier commit on ${query.branch} has runs`
            : `no run of the ${window.baselineCommits.length} earlier commits on ${query.branch} has this metric`;
        const alone = describeMetric(spec, data.slice(1), { alpha: experiment.alpha });
        entries.push({ ...describe, comparison: alone, reason });
        metrics.push({
          variant: variant.name,
          ...describe,
          verdict: "insufficient_data",
          changePercent: null,
          median: alone.variants[0]?.median ?? null,
          baselineMedian: null,
          reason,
          belowMinChange: false,
        });
        continue;
      }
      const compared = compareMetric(spec, data, { alpha: experiment.alpha, minimumRuns: "attainable" });
      const { candidate: tested, belowMinChange } = applyMinChange(compared.comparisons[0]!, query.minChange);
      const comparison = { ...compared, comparisons: [tested] };
      entries.push({ ...describe, comparison, reason: null });
      metrics.push({
        variant: variant.name,
        ...describe,
        verdict: tested.verdict,
        changePercent: tested.change.percent,
        median: comparison.variants.find((v) => !v.isBaseline)?.median ?? null,
        baselineMedian: comparison.variants.find((v) => v.isBaseline)?.median ?? null,
        reason: tested.reason,
        belowMinChange,
      });
    }
    comparisons.push({
      experiment: { slug: experiment.slug, title: experiment.title, alpha: experiment.alpha },
      baseline: baselineName,
      variants: [
        { name: baselineName, isBaseline: true, runs: runs(window.baseline) },
        { name: short, isBaseline: false, runs: runs(window.candidate) },
      ],
      metrics: entries,
    });
  }

  const verdict = overallVerdict(metrics);
  const result = {
    experiment: { slug: experiment.slug, title: experiment.title, url: experimentUrl(scope.baseUrl, scope.projectSlug, experiment.slug) },
    commit: window.commit,
    branch: query.branch,
    window: { requested: query.window, commits: window.baselineCommits },
    verdict,
    minChangePercent: query.minChange,
    metrics,
    comparisons,
  };
  return { ...result, markdown: renderCheckMarkdown({ ...result, variants: checked.map((v) => v.name) }) };
}

/** A regression anywhere fails the gate; otherwise an improvement anywhere is reported. */
export function overallVerdict(metrics: { verdict: TCheckMetric["verdict"] }[]): TCheckVerdict {
  if (metrics.some((m) => m.verdict === "worse")) return "regression";
  if (metrics.some((m) => m.verdict === "better")) return "improvement";
  if (metrics.length > 0 && metrics.every((m) => m.verdict === "insufficient_data")) return "insufficient_data";
  return "no_change";
}
