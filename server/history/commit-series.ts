// A metric's history for one variant: one point per commit, the median of that commit's runs
// with the median's confidence interval, and every run's own value. It is what the history page
// draws, what change points are detected on (change-point-store.ts), and what a CI gate compares
// a commit against.
//
// A run's value is the figure the experiment's comparison uses (runFigureSql, the SQL form of
// runFigure in server/runs/run-figure.ts), selected in SQL so that 10,000
// commits × 10 runs come back as 10,000 rows rather than 100,000. Results with a figure that is
// not finite are left out, as everywhere else (server/runs/finite-figures.ts).
import type { Db } from "../db/client";
import { Prisma } from "../db/generated/client";
import { AppError } from "../core/errors";
import { storedFigures } from "../runs/finite-figures";
import { runFigureSql } from "../runs/run-figure";
import { medianCi } from "../stats/median-ci";

export interface CommitSeriesQuery {
  experimentId: string;
  /** The metric's key. */
  metric: string;
  /** The variant's name. */
  variant: string;
  /** Only runs on this branch; all branches when absent or null. */
  branch?: string | null;
}

export interface CommitPoint {
  /** The commit's SHA as uploaded. */
  commit: string;
  /** The branch of the commit's latest run that names one. */
  branch: string | null;
  /** The commit's time when an uploader gave it, else the time of its first run. */
  time: Date;
  /** The commit's message when an uploader gave it. */
  message?: string;
  /** Each run's figure (run-figure.ts: its value, else the metric's aggregation of it), ascending. */
  runValues: number[];
  median: number;
  /** The median's distribution-free 95% CI (server/stats/median-ci.ts): [min, max] below 6 runs. */
  ciLow: number;
  ciHigh: number;
}

/** Confidence of the band around each commit's median. */
export const COMMIT_CI_CONFIDENCE = 0.95;

export interface SeriesSubject {
  metric: {
    id: string;
    key: string;
    label: string;
    unit: string;
    direction: "lower_is_better" | "higher_is_better";
    aggregation: Parameters<typeof runFigureSql>[0];
  };
  variant: { id: string; name: string };
}

/** The experiment's metric and variant by key and name, or a 404 naming the field that did not match. */
export async function seriesSubject(db: Db, experimentId: string, metricKey: string, variantName: string): Promise<SeriesSubject> {
  const experiment = await db.experiment.findUnique({
    where: { id: experimentId },
    select: {
      slug: true,
      metrics: { where: { key: metricKey }, select: { id: true, key: true, label: true, unit: true, direction: true, aggregation: true } },
      variants: { where: { name: variantName }, select: { id: true, name: true } },
    },
  });
  if (!experiment) throw new AppError("NOT_FOUND", `No experiment "${experimentId}"`);
  const [metric] = experiment.metrics;
  if (!metric)
    throw new AppError("NOT_FOUND", `Experiment "${experiment.slug}" has no metric "${metricKey}"`, {
      fieldIssues: [{ path: ["metric"], message: `no metric "${metricKey}" in this experiment` }],
    });
  const [variant] = experiment.variants;
  if (!variant)
    throw new AppError("NOT_FOUND", `Experiment "${experiment.slug}" has no variant "${variantName}"`, {
      fieldIssues: [{ path: ["variant"], message: `no variant "${variantName}" in this experiment` }],
    });
  return { metric, variant };
}

/** The client or a transaction: both read. */
type Queryable = Pick<Db, "$queryRaw">;

interface Row {
  commit: string;
  branch: string | null;
  message: string | null;
  time: Date;
  values: number[];
}

/** Per-commit points of (experiment, metric, variant, branch), ordered by commit time, else first run time. */
export async function getCommitSeries(db: Db, query: CommitSeriesQuery): Promise<CommitPoint[]> {
  const subject = await seriesSubject(db, query.experimentId, query.metric, query.variant);
  return commitSeriesOf(db, subject, query.branch ?? null);
}

/** The series for an already resolved metric and variant (the history service resolves them once). */
export async function commitSeriesOf(db: Queryable, subject: SeriesSubject, branch: string | null): Promise<CommitPoint[]> {
  const figure = runFigureSql(subject.metric.aggregation, "res");
  const finite = Prisma.join(
    Object.keys(storedFigures).map((f) => Prisma.raw(`(res."${f}" IS NULL OR res."${f}" NOT IN ('Infinity'::float8, '-Infinity'::float8, 'NaN'::float8))`)),
    " AND ",
  );
  const onBranch = branch === null ? Prisma.empty : Prisma.sql`AND r."gitBranch" = ${branch}`;
  const runTime = Prisma.sql`COALESCE(r."startedAt", r."createdAt")`;
  const rows = await db.$queryRaw<Row[]>`
    SELECT r."gitCommit" AS "commit",
      (array_agg(r."gitBranch" ORDER BY ${runTime} DESC) FILTER (WHERE r."gitBranch" IS NOT NULL))[1] AS "branch",
      (array_agg(r."gitCommitMessage" ORDER BY ${runTime} DESC) FILTER (WHERE r."gitCommitMessage" IS NOT NULL))[1] AS "message",
      COALESCE(MIN(r."gitCommitTime"), MIN(${runTime})) AS "time",
      array_agg(${figure} ORDER BY ${figure}) AS "values"
    FROM "Run" r
    JOIN "RunMetricResult" res ON res."runId" = r."id" AND res."metricId" = ${subject.metric.id}
    WHERE r."variantId" = ${subject.variant.id} AND r."status" = 'succeeded'
      AND r."gitCommit" IS NOT NULL AND r."gitCommit" <> '' ${onBranch}
      AND ${finite}
    GROUP BY r."gitCommit"
    ORDER BY 4, 1`;
  return rows.map((row) => {
    const ci = medianCi(row.values, COMMIT_CI_CONFIDENCE);
    if (!ci) throw new Error(`commit ${row.commit} has no values`); // GROUP BY yields only groups with rows
    return {
      commit: row.commit,
      branch: row.branch,
      time: row.time,
      ...(row.message ? { message: row.message } : {}),
      runValues: row.values,
      median: ci.median,
      ciLow: ci.low,
      ciHigh: ci.high,
    };
  });
}

/** The branches a variant's runs name, most runs first (the page's branch selector). */
export async function seriesBranches(db: Queryable, variantId: string): Promise<{ branch: string; commits: number }[]> {
  const rows = await db.$queryRaw<{ branch: string; commits: bigint }[]>`
    SELECT r."gitBranch" AS "branch", COUNT(DISTINCT r."gitCommit") AS "commits"
    FROM "Run" r
    WHERE r."variantId" = ${variantId} AND r."status" = 'succeeded' AND r."gitBranch" IS NOT NULL AND r."gitCommit" IS NOT NULL AND r."gitCommit" <> ''
    GROUP BY r."gitBranch"
    ORDER BY 2 DESC, 1`;
  return rows.map((r) => ({ branch: r.branch, commits: Number(r.commits) }));
}
