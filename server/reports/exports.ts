// CSV exports of one experiment, for spreadsheets and notebooks: every run's stored summary per
// metric with the run's explicit value and the figure it contributes to comparisons (runs.csv, by
// the rule of run-figure.ts), and the comparison per metric and variant (summary.csv). Numbers are
// written unrounded (JavaScript's shortest round-trip form) and unscaled so they read back exactly;
// an unknown figure is an empty cell. A column's header names its unit where the unit is fixed
// (change_percent, change_ci_low_percent); the figures of the metric itself (mean, median, p99…)
// are in the metric's own unit, which every row's `unit` column gives. Dates are ISO 8601 in UTC.
import { stringify } from "csv-stringify/sync";
import type { Db } from "../db/client";
import type { TExportFile } from "../schemas/report";
import type { MergedPercentiles } from "../stats/schemas";
import { getComparison } from "../comparison/comparison";
import { storedFigures } from "../runs/finite-figures";
import { runFigure } from "../runs/run-figure";
import { getProjectBySlug } from "../projects/projects";
import { AppError } from "../core/errors";
import { verdictP } from "../display/display";

type Cell = string | number | boolean | null | undefined;

const RUN_COLUMNS = [
  "variant",
  "repetition",
  "run_id",
  "status",
  "source",
  "source_detail",
  "started_at",
  "finished_at",
  "git_commit",
  "git_branch",
  "metric",
  "unit",
  "n",
  "mean",
  "sd",
  "min",
  "max",
  "p50",
  "p90",
  "p95",
  "p99",
  "p99_9",
  "sum",
  "value",
  "compared_value",
  "summary_note",
  "warnings",
] as const;

const SUMMARY_COLUMNS = [
  "metric",
  "label",
  "unit",
  "direction",
  "aggregation",
  "variant",
  "is_baseline",
  "baseline",
  "runs",
  "median",
  "median_ci_low",
  "median_ci_high",
  "median_ci_confidence",
  "mean",
  "sd",
  "min",
  "max",
  "merged_count",
  "merged_min",
  "merged_p50",
  "merged_p90",
  "merged_p95",
  "merged_p99",
  "merged_p99_9",
  "merged_max",
  "change_percent",
  "change_ci_low_percent",
  "change_ci_high_percent",
  "change_ci_confidence",
  "p",
  "p_adjustment",
  "verdict",
  "evidence",
  "reason",
] as const;

function csv(columns: readonly string[], rows: Record<string, Cell>[]): string {
  return stringify(rows, { header: true, columns: [...columns], cast: { boolean: (value) => String(value) } });
}

const iso = (date: Date | null) => date?.toISOString() ?? null;

async function findExperiment(db: Db, projectSlug: string, experimentSlug: string) {
  const project = await getProjectBySlug(db, projectSlug);
  const experiment = await db.experiment.findUnique({
    where: { projectId_slug: { projectId: project.id, slug: experimentSlug } },
    select: { id: true, slug: true },
  });
  if (!experiment) throw new AppError("NOT_FOUND", `No experiment "${experimentSlug}" in project "${projectSlug}"`);
  return experiment;
}

/** One row per run and metric (a run without results still gets one row, so failed runs show). */
export async function exportRunsCsv(db: Db, where: { projectSlug: string }, experimentSlug: string): Promise<TExportFile> {
  const experiment = await findExperiment(db, where.projectSlug, experimentSlug);
  const runs = await db.run.findMany({
    where: { experimentId: experiment.id },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    select: {
      id: true,
      repetition: true,
      status: true,
      source: true,
      sourceDetail: true,
      startedAt: true,
      finishedAt: true,
      gitCommit: true,
      gitBranch: true,
      warnings: true,
      variant: { select: { name: true } },
      results: {
        orderBy: { metric: { position: "asc" } },
        select: { n: true, ...storedFigures, summaryNote: true, metric: { select: { key: true, unit: true, aggregation: true } } },
      },
    },
  });
  const rows = runs.flatMap((run) => {
    const common = {
      variant: run.variant.name,
      repetition: run.repetition,
      run_id: run.id,
      status: run.status,
      source: run.source,
      source_detail: run.sourceDetail,
      started_at: iso(run.startedAt),
      finished_at: iso(run.finishedAt),
      git_commit: run.gitCommit,
      git_branch: run.gitBranch,
      // The run's warnings (a probe's gaps…), one a line in the cell; on each of the run's rows.
      warnings: run.warnings.join("\n"),
    };
    if (run.results.length === 0) return [common];
    return run.results.map((r) => ({
      ...common,
      metric: r.metric.key,
      unit: r.metric.unit,
      // n is a BigInt column: its decimal digits, exactly.
      n: r.n.toString(),
      mean: r.mean,
      sd: r.sd,
      min: r.min,
      max: r.max,
      p50: r.p50,
      p90: r.p90,
      p95: r.p95,
      p99: r.p99,
      p99_9: r.p999,
      sum: r.sum,
      // value: what the producer sent as the run's own figure; compared_value: what comparisons use.
      value: r.value,
      compared_value: runFigure(r, r.metric.aggregation),
      summary_note: r.summaryNote,
    }));
  });
  return { fileName: `${experiment.slug}-runs.csv`, contentType: "text/csv; charset=utf-8", text: csv(RUN_COLUMNS, rows) };
}

/** The percentiles merged from a variant's run histograms (empty cells without histograms). */
function mergedColumns(merged: MergedPercentiles | null): Record<string, Cell> {
  if (!merged) return {};
  return {
    merged_count: merged.count,
    merged_min: merged.min,
    merged_p50: merged.p50,
    merged_p90: merged.p90,
    merged_p95: merged.p95,
    merged_p99: merged.p99,
    merged_p99_9: merged.p999,
    merged_max: merged.max,
  };
}

/**
 * One row per metric and variant of the comparison the experiment page shows: every variant with
 * runs, also when there is nothing to compare it with (then the reason says so).
 */
export async function exportSummaryCsv(db: Db, where: { projectSlug: string }, experimentSlug: string, baseline?: string): Promise<TExportFile> {
  const experiment = await findExperiment(db, where.projectSlug, experimentSlug);
  const comparison = await getComparison(db, { projectSlug: where.projectSlug }, experimentSlug, baseline);
  const rows: Record<string, Cell>[] = [];
  for (const metric of comparison.metrics) {
    const described = {
      metric: metric.key,
      label: metric.label,
      unit: metric.unit,
      direction: metric.direction,
      aggregation: metric.aggregation,
      baseline: comparison.baseline,
    };
    if (!metric.comparison) {
      rows.push({ ...described, reason: metric.reason });
      continue;
    }
    for (const stats of metric.comparison.variants) {
      const candidate = metric.comparison.comparisons.find((c) => c.candidate === stats.variant);
      rows.push({
        ...described,
        variant: stats.variant,
        is_baseline: stats.isBaseline,
        runs: stats.n,
        median: stats.median,
        median_ci_low: stats.medianCi?.low,
        median_ci_high: stats.medianCi?.high,
        median_ci_confidence: stats.medianCi?.confidence,
        mean: stats.mean,
        sd: stats.sd,
        min: stats.min,
        max: stats.max,
        ...mergedColumns(stats.percentiles),
        change_percent: candidate?.change.percent,
        change_ci_low_percent: candidate?.change.percentCi?.low,
        change_ci_high_percent: candidate?.change.percentCi?.high,
        change_ci_confidence: candidate?.change.ciConfidence,
        // The p the verdict rests on: empty beside insufficient_data, where the test cannot decide.
        p: candidate ? verdictP(candidate) : null,
        p_adjustment: candidate?.adjustment,
        // A variant that was not tested (the baseline, or every variant when nothing could be)
        // carries the metric's reason, if any.
        verdict: candidate?.verdict,
        evidence: candidate?.evidence,
        reason: candidate?.reason ?? metric.reason,
      });
    }
  }
  return { fileName: `${experiment.slug}-summary.csv`, contentType: "text/csv; charset=utf-8", text: csv(SUMMARY_COLUMNS, rows) };
}
