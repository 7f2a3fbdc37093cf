// The experiment page's lists of runs, a page at a time: the runs (newest first) and, per metric,
// each run's stored summary (by variant, then repetition, the comparison's order). A history of
// hundreds of commits has hundreds of runs; the page loads and draws the ones it shows.
import type { Db } from "../db/client";
import { AppError } from "../core/errors";
import type { TRunPage } from "../schemas/experiment-runs";
import type { MetricAggregation } from "../db/generated/enums";
import { nonFiniteFigures, storedFigures, unusableReason, type StoredFigures } from "./finite-figures";
import { runFigure } from "./run-figure";

async function experimentOf(db: Db, projectId: string, experimentSlug: string) {
  const experiment = await db.experiment.findUnique({ where: { projectId_slug: { projectId, slug: experimentSlug } }, select: { id: true } });
  if (!experiment) throw new AppError("NOT_FOUND", `No experiment "${experimentSlug}" in this project`);
  return experiment;
}

/** A page of the experiment's runs, newest first, with how many there are in all. */
export async function listRuns(db: Db, projectId: string, experimentSlug: string, page: TRunPage) {
  const experiment = await experimentOf(db, projectId, experimentSlug);
  const [runs, total] = await Promise.all([
    db.run.findMany({
      where: { experimentId: experiment.id },
      // Runs of one upload share its transaction's createdAt; cuids ascend in creation order.
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      skip: page.offset,
      take: page.limit,
      select: {
        id: true,
        status: true,
        source: true,
        sourceDetail: true,
        repetition: true,
        createdAt: true,
        finishedAt: true,
        gitCommit: true,
        gitBranch: true,
        environment: true,
        warnings: true,
        variant: { select: { name: true } },
        job: { select: { shards: true, batch: { select: { noise: true } } } },
      },
    }),
    db.run.count({ where: { experimentId: experiment.id } }),
  ]);
  return {
    // noise: the run is an A/A batch's, which measures the noise floor and is not compared.
    // agents: how many agents made the run together (a job group's), 1 for one agent or an upload.
    runs: runs.map(({ variant, job, ...run }) => ({ ...run, variant: variant.name, noise: job?.batch.noise ?? false, agents: job?.shards ?? 1 })),
    total,
    offset: page.offset,
    limit: page.limit,
  };
}

export type RunsPage = Awaited<ReturnType<typeof listRuns>>;

/** A page of one metric's stored results, by variant (the experiment's order), then repetition. */
export async function listMetricResults(db: Db, projectId: string, experimentSlug: string, metricKey: string, page: TRunPage) {
  const experiment = await experimentOf(db, projectId, experimentSlug);
  const metric = await db.metric.findUnique({
    where: { experimentId_key: { experimentId: experiment.id, key: metricKey } },
    select: { id: true, aggregation: true },
  });
  if (!metric) throw new AppError("NOT_FOUND", `No metric "${metricKey}" in experiment "${experimentSlug}"`);
  const [results, total] = await Promise.all([
    db.runMetricResult.findMany({
      where: { metricId: metric.id },
      orderBy: [{ run: { variant: { position: "asc" } } }, { run: { repetition: "asc" } }, { runId: "asc" }],
      skip: page.offset,
      take: page.limit,
      select: { n: true, ...storedFigures, summaryNote: true, run: { select: { id: true, repetition: true, variant: { select: { name: true } } } } },
    }),
    db.runMetricResult.count({ where: { metricId: metric.id } }),
  ]);
  return {
    rows: results.map(({ run, ...result }) => ({
      run: { id: run.id, repetition: run.repetition, variant: run.variant.name },
      result: shownResult(result, metric.aggregation),
    })),
    total,
    offset: page.offset,
    limit: page.limit,
  };
}

export type MetricResultsPage = Awaited<ReturnType<typeof listMetricResults>>;

/**
 * A run's stored summary as the page shows it: a figure that is not finite (stored before ingest
 * refused them) is shown as unknown, and `unusable` says the result is left out of comparisons.
 * `runValue` is what the run contributes to comparisons (run-figure.ts), `explicit` whether its
 * producer sent it as the run's value; `summaryNote` says why the summary cannot be taken as it
 * reads (rows the run-value migration flagged).
 */
function shownResult(result: { n: bigint; summaryNote: string | null } & StoredFigures, aggregation: MetricAggregation) {
  const unusable = unusableReason(result);
  const runValue = unusable ? null : runFigure({ ...result, mean: result.mean as number }, aggregation);
  // n is a BigInt column; a run's sample count fits a double exactly up to 2^53.
  const shown = { ...result, n: Number(result.n), unusable, runValue, explicit: result.value !== null };
  for (const figure of nonFiniteFigures(result)) shown[figure] = null;
  return shown;
}
