// The experiment page's lists of runs, a page at a time: the runs (newest first) and, per metric,
// each run's stored summary (by variant, then repetition, the comparison's order). A history of
// hundreds of commits has hundreds of runs; the page loads and draws the ones it shows.
import type { Db } from "../db/client";
import { Prisma } from "../db/generated/client";
import { preparedQuery } from "../db/prepared-statements";
import { AppError } from "../core/errors";
import type { TRunPage } from "../schemas/experiment-runs";
import type { MetricAggregation, RunSource, RunStatus } from "../db/generated/enums";
import { nonFiniteFigures, storedFigures, unusableReason, type StoredFigures } from "./finite-figures";
import { runFigure } from "./run-figure";

// Both lists are read with prepared statements on the pool (../db/prepared-statements.ts): the page
// reads each on every view, and Prisma's pipeline cost several times what PostgreSQL did for
// these few rows (a metric's page was four statements and ~9 ms of CPU; now one and ~2 ms).

interface RunRow {
  id: string;
  status: RunStatus;
  source: RunSource;
  sourceDetail: string;
  repetition: number;
  createdAt: Date;
  finishedAt: Date | null;
  gitCommit: string | null;
  gitBranch: string | null;
  environment: Prisma.JsonValue;
  warnings: string[];
  variant: string;
  noise: boolean | null;
  shards: number | null;
}

/** A page of the experiment's runs, newest first, with how many there are in all. */
export async function listRuns(db: Db, projectId: string, experimentSlug: string, page: TRunPage) {
  // The total and the page in one statement: a page's reads share one connection, where each
  // statement is a round trip the next one waits for (../db/one-connection.ts). No experiment:
  // no row; no runs (or none this far): one row without a run.
  const rows = await preparedQuery<{ total: bigint } & ({ [K in keyof RunRow]: null } | RunRow)>(
    db,
    Prisma.sql`
      SELECT t."total", page.*
      FROM "Experiment" e
      CROSS JOIN LATERAL (SELECT count(*) AS "total" FROM "Run" r WHERE r."experimentId" = e."id") t
      LEFT JOIN LATERAL (
        SELECT r."id", r."status", r."source", r."sourceDetail", r."repetition", r."createdAt", r."finishedAt", r."gitCommit", r."gitBranch",
               r."environment", r."warnings", v."name" AS "variant", b."noise", j."shards"
        FROM "Run" r
        JOIN "Variant" v ON v."id" = r."variantId"
        LEFT JOIN "Job" j ON j."runId" = r."id"
        LEFT JOIN "JobBatch" b ON b."id" = j."batchId"
        WHERE r."experimentId" = e."id"
        -- Runs of one upload share its transaction's createdAt; ids ascend in creation order.
        ORDER BY r."createdAt" DESC, r."id" DESC
        OFFSET ${page.offset} LIMIT ${page.limit}
      ) page ON true
      WHERE e."projectId" = ${projectId} AND e."slug" = ${experimentSlug}
      ORDER BY page."createdAt" DESC, page."id" DESC`,
  );
  if (!rows.length) throw new AppError("NOT_FOUND", `No experiment "${experimentSlug}" in this project`);
  const total = Number(rows[0]!.total);
  const runs = rows.flatMap(({ total: _total, ...run }) => (run.id === null ? [] : [run as RunRow]));
  return {
    // noise: the run is an A/A batch's, which measures the noise floor and is not compared.
    // agents: how many agents made the run together (a job group's), 1 for one agent or an upload.
    runs: runs.map(({ noise, shards, ...run }) => ({ ...run, noise: noise ?? false, agents: shards ?? 1 })),
    total,
    offset: page.offset,
    limit: page.limit,
  };
}

export type RunsPage = Awaited<ReturnType<typeof listRuns>>;

/** Every stored figure of a result (finite-figures.ts), as the column list of a statement. */
const storedFigureColumns = Prisma.raw(
  Object.keys(storedFigures)
    .map((figure) => `rm."${figure}"`)
    .join(", "),
);

type ResultRow = StoredFigures & { n: bigint; summaryNote: string | null; runId: string; repetition: number; variant: string };

/** A page of one metric's stored results, by variant (the experiment's order), then repetition. */
export async function listMetricResults(db: Db, projectId: string, experimentSlug: string, metricKey: string, page: TRunPage) {
  // The metric, its total and the page in one statement, as listRuns. No experiment: no row; no
  // such metric: a row without its id; no results (or none this far): a row without a run.
  const rows = await preparedQuery<
    { metricId: string | null; aggregation: MetricAggregation | null; total: bigint; variantPosition: number | null } & (
      { [K in keyof ResultRow]: null } | ResultRow
    )
  >(
    db,
    Prisma.sql`
      SELECT m."id" AS "metricId", m."aggregation", t."total", page.*
      FROM "Experiment" e
      LEFT JOIN "Metric" m ON m."experimentId" = e."id" AND m."key" = ${metricKey}
      CROSS JOIN LATERAL (SELECT count(*) AS "total" FROM "RunMetricResult" rm WHERE rm."metricId" = m."id") t
      LEFT JOIN LATERAL (
        SELECT rm."n", ${storedFigureColumns}, rm."summaryNote", r."runId", r."repetition", r."variant", r."variantPosition"
        FROM "RunMetricResult" rm
        -- Each result's run and variant by their keys. As joins, the planner, expecting a metric
        -- to hold the database's average number of results, hashed every run of the database for
        -- a page of a few: 7 ms of PostgreSQL's CPU at 24,000 runs, growing with them. OFFSET 0
        -- keeps the lookup a lookup (the planner does not fold such a subquery into a join).
        CROSS JOIN LATERAL (
          SELECT r."id" AS "runId", r."repetition", v."name" AS "variant", v."position" AS "variantPosition"
          FROM "Run" r
          JOIN "Variant" v ON v."id" = r."variantId"
          WHERE r."id" = rm."runId"
          OFFSET 0
        ) r
        WHERE rm."metricId" = m."id"
        ORDER BY r."variantPosition", r."repetition", rm."runId"
        OFFSET ${page.offset} LIMIT ${page.limit}
      ) page ON true
      WHERE e."projectId" = ${projectId} AND e."slug" = ${experimentSlug}
      ORDER BY page."variantPosition", page."repetition", page."runId"`,
  );
  const [metric] = rows;
  if (!metric) throw new AppError("NOT_FOUND", `No experiment "${experimentSlug}" in this project`);
  if (!metric.metricId || !metric.aggregation) throw new AppError("NOT_FOUND", `No metric "${metricKey}" in experiment "${experimentSlug}"`);
  const results = rows.flatMap(({ metricId: _metricId, aggregation: _aggregation, total: _total, variantPosition: _position, ...result }) =>
    result.runId === null ? [] : [result as ResultRow],
  );
  const aggregation = metric.aggregation;
  return {
    rows: results.map(({ runId, repetition, variant, ...result }) => ({
      run: { id: runId, repetition, variant },
      result: shownResult(result, aggregation),
    })),
    total: Number(metric.total),
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
