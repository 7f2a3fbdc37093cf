// The one way runs are written: an upload's or an import's runs (inside the upload's transaction,
// after its experiment, variants, metrics and repetitions are settled) and an agent's run (in the
// single statement of its complete, storeJobRun) are the same rows — Run, RunMetricResult,
// RunTimeSeries — built by runRows and inserted by the CTEs of insertRunsSql, every run, result
// and series of the request in one statement whatever their number. Everything before it
// (checking metrics, summaries, histograms, compressed samples) is prepare-metric.ts.
//
// "Runs were stored": the one way the rest of Versus learns of new runs. Runs with a commit (an
// upload's, an import's, an agent's) mark their experiment in the same transaction, so the mark
// commits with the runs or not at all and survives a restart; the background worker
// (server/background/worker.ts) claims marks, recomputes the history's change points and
// evaluates the alert rules. Runs without a commit are in no history and mark nothing. A mark is
// a row of RunsStoredTask.
//
// An agent's complete is one SQL statement (so one round trip and its own transaction): mark the
// job succeeded under the lease presented, take the next repetition from the variant's counter,
// insert the run, its metric results and time series, and mark the runs stored when the run names a
// commit. What it leaves out is what a job needs not: its run always
// goes to an experiment, variant and metrics that exist, and the job row itself is the
// idempotency record. A second complete of the same job waits on the job's row lock in `done`,
// then finds it no longer leased and writes nothing. Completes of different jobs of one variant
// wait only for each other's counter update, never for the experiment's lock that uploads take.
import { timeOrderedId } from "../db/time-ordered-id";
import { type Db, type Prisma as PrismaTypes } from "../db/client";
import { preparedQuery } from "../db/prepared-statements";
import { Prisma } from "../db/generated/client";
import { utcNow } from "../db/utc-now";
import type { SqlClient } from "../db/sql-transaction";
import type { TRunInput } from "../schemas/results";
import type { PreparedMetric } from "./prepare-metric";
import { MAX_REPETITION, numberingOf, takeRepetitionsSql } from "./run-numbering";

export type RunToStore = Pick<
  TRunInput,
  | "status"
  | "startedAt"
  | "finishedAt"
  | "environment"
  | "gitCommit"
  | "gitBranch"
  | "gitCommitMessage"
  | "gitCommitTime"
  | "tags"
  | "sourceDetail"
  | "warnings"
>;

export interface RunOfRequest {
  run: RunToStore;
  variantId: string;
  /** Given by the uploader; null: the next of the variant's counter, taken in the statement that inserts the run. */
  repetition: number | null;
  metrics: { metricId: string; prepared: PreparedMetric }[];
}

export interface RunContext {
  experimentId: string;
  source: "upload" | "import" | "agent" | "example";
  /** For runs that do not say where their numbers came from. */
  sourceDetail: string;
  ingestRequestId?: string | null;
  /** A run without startedAt or finishedAt finished now. */
  now: Date;
}

/** The rows of these runs, with their ids (time-ordered, so runs of one statement sort in request order). */
function runRows(runs: RunOfRequest[], context: RunContext) {
  const iso = (date: Date | null) => (date ? date.toISOString() : null);
  const numbering = numberingOf(runs);
  const runRows = [];
  const results = [];
  const series = [];
  // Histograms and samples travel as one binary parameter (`blobs` in insertRunsSql), each result
  // naming its slice: PostgreSQL then neither parses them out of the JSON text nor decodes base64.
  const blobs: Uint8Array[] = [];
  let blobBytes = 0;
  const slice = (blob: Uint8Array | null) => {
    if (!blob) return { at: null, bytes: null };
    blobs.push(blob);
    blobBytes += blob.byteLength;
    return { at: blobBytes - blob.byteLength, bytes: blob.byteLength };
  };
  for (const [index, { run, variantId, repetition, metrics }] of runs.entries()) {
    const id = timeOrderedId();
    const startedAt = run.startedAt ? new Date(run.startedAt) : null;
    const finishedAt = run.finishedAt ? new Date(run.finishedAt) : startedAt ? null : context.now;
    runRows.push({
      // The columns' own defaults where a caller built a run without the schema's (status, environment, tags).
      id,
      variantId,
      repetition,
      autoIndex: numbering.autoIndex[index] as number,
      status: run.status ?? "succeeded",
      source: context.source,
      sourceDetail: run.sourceDetail ?? context.sourceDetail,
      startedAt: iso(startedAt),
      finishedAt: iso(finishedAt),
      environment: run.environment ?? {},
      gitCommit: run.gitCommit ?? null,
      gitBranch: run.gitBranch ?? null,
      gitCommitMessage: run.gitCommitMessage ?? null,
      gitCommitTime: iso(run.gitCommitTime ? new Date(run.gitCommitTime) : null),
      tags: run.tags ?? [],
      warnings: run.warnings ?? [],
      ingestRequestId: context.ingestRequestId ?? null,
    });
    for (const { metricId, prepared } of metrics) {
      const { histogram, samples, ...figures } = prepared.result;
      const histogramSlice = slice(histogram);
      const samplesSlice = slice(samples);
      results.push({
        id: timeOrderedId(),
        runId: id,
        metricId,
        ...figures,
        n: figures.n.toString(),
        histogramAt: histogramSlice.at,
        histogramBytes: histogramSlice.bytes,
        samplesAt: samplesSlice.at,
        samplesBytes: samplesSlice.bytes,
      });
      if (prepared.timeSeries) {
        series.push({
          id: timeOrderedId(),
          runId: id,
          metricId,
          startedAt: prepared.timeSeries.startedAt.toISOString(),
          offsetsMs: prepared.timeSeries.offsetsMs,
          values: prepared.timeSeries.values,
        });
      }
    }
  }
  return { experimentId: context.experimentId, variants: numbering.variants, runs: runRows, results, series, blobs: Buffer.concat(blobs, blobBytes) };
}

export type RunRows = ReturnType<typeof runRows>;

/**
 * The CTEs that number and insert the rows: the variants' counters advanced (takeRepetitionsSql,
 * only when `onlyIf` holds), then `run`, `results` and `series` (`run` returns each stored run's
 * id and repetition). A run without a repetition takes the next of its variant's counter.
 * - `unnumbered: "skip"`: a run whose number would pass MAX_REPETITION is not inserted, nor is any
 *   when the counters were not advanced; the caller's transaction tells and rolls back.
 * - `unnumbered: "fail"`, for a statement that is its own transaction: the runs are inserted when
 *   `insertIf` holds, and a run its statement could not number (its variant or experiment gone
 *   since the caller read them, or a number past the Run column's range) fails the whole
 *   statement, so it never commits some of an upload's runs without the others.
 */
function insertRunsSql(
  rows: RunRows,
  options: { onlyIf?: PrismaTypes.Sql; unnumbered: "skip" } | { onlyIf: PrismaTypes.Sql; unnumbered: "fail"; insertIf: PrismaTypes.Sql },
): PrismaTypes.Sql {
  const repetition = Prisma.sql`COALESCE(r."repetition", n."first" + r."autoIndex")`;
  const numbered =
    options.unnumbered === "skip"
      ? Prisma.sql`JOIN numbered n ON n."variantId" = r."variantId"
      WHERE ${repetition} <= ${MAX_REPETITION}`
      : Prisma.sql`LEFT JOIN numbered n ON n."variantId" = r."variantId"
      WHERE ${options.insertIf}`;
  return Prisma.sql`
    ${takeRepetitionsSql(rows.variants, options.onlyIf)},
    run AS (
      INSERT INTO "Run" ("id", "experimentId", "variantId", "status", "source", "sourceDetail", "repetition", "startedAt", "finishedAt", "environment", "gitCommit", "gitBranch", "gitCommitMessage", "gitCommitTime", "tags", "warnings", "ingestRequestId", "createdAt")
      SELECT r."id", ${rows.experimentId}, r."variantId", r."status"::"RunStatus", r."source"::"RunSource", r."sourceDetail", ${repetition}, r."startedAt", r."finishedAt",
        r."environment", r."gitCommit", r."gitBranch", r."gitCommitMessage", r."gitCommitTime", r."tags", r."warnings", r."ingestRequestId", ${utcNow}
      FROM json_to_recordset(${JSON.stringify(rows.runs)}::json) AS r(
        "id" text, "variantId" text, "repetition" int, "autoIndex" bigint, "status" text, "source" text, "sourceDetail" text, "startedAt" timestamp, "finishedAt" timestamp,
        "environment" jsonb, "gitCommit" text, "gitBranch" text, "gitCommitMessage" text, "gitCommitTime" timestamp, "tags" text[], "warnings" text[], "ingestRequestId" text)
      ${numbered}
      RETURNING "id", "repetition"
    ),
    blobs AS (SELECT ${rows.blobs}::bytea AS "bytes"),
    results AS (
      INSERT INTO "RunMetricResult" ("id", "runId", "metricId", "n", "mean", "sd", "min", "max", "p50", "p90", "p95", "p99", "p999", "sum", "value", "histogram", "histogramScale", "samples", "createdAt")
      SELECT r."id", run."id", r."metricId", r."n", r."mean", r."sd", r."min", r."max", r."p50", r."p90", r."p95", r."p99", r."p999", r."sum", r."value",
        substring(blobs."bytes" FROM r."histogramAt" + 1 FOR r."histogramBytes"), r."histogramScale",
        substring(blobs."bytes" FROM r."samplesAt" + 1 FOR r."samplesBytes"), ${utcNow}
      FROM json_to_recordset(${JSON.stringify(rows.results)}::json) AS r(
        "id" text, "runId" text, "metricId" text, "n" bigint, "mean" float8, "sd" float8, "min" float8, "max" float8, "p50" float8, "p90" float8,
        "p95" float8, "p99" float8, "p999" float8, "sum" float8, "value" float8, "histogramAt" int, "histogramBytes" int, "histogramScale" float8,
        "samplesAt" int, "samplesBytes" int)
      JOIN run ON run."id" = r."runId" CROSS JOIN blobs
    ),
    series AS (
      INSERT INTO "RunTimeSeries" ("id", "runId", "metricId", "startedAt", "offsetsMs", "values", "createdAt")
      SELECT s."id", run."id", s."metricId", s."startedAt", s."offsetsMs", s."values", ${utcNow}
      FROM json_to_recordset(${JSON.stringify(rows.series)}::json) AS s("id" text, "runId" text, "metricId" text, "startedAt" timestamp, "offsetsMs" float8[], "values" float8[])
      JOIN run ON run."id" = s."runId"
    )`;
}

/**
 * Numbers and inserts the runs in one statement (inside the caller's transaction), with their
 * experiment's "runs stored" mark when one of them names a commit: each run's id and repetition,
 * in request order, or null for a run not stored because its variant has no numbers left (the
 * caller refuses the request and rolls back).
 */
export async function insertRuns(tx: SqlClient, runs: RunOfRequest[], context: RunContext): Promise<({ id: string; repetition: number } | null)[]> {
  const rows = runRows(runs, context);
  if (rows.runs.length === 0) return [];
  const named = runs.some(({ run }) => run.gitCommit);
  const stored = await tx.query<{ id: string; repetition: number }>(Prisma.sql`
    WITH ${insertRunsSql(rows, { unnumbered: "skip" })},
    marked AS (${markRunsStoredSql(rows.experimentId, Prisma.sql`${named}`)})
    SELECT "id", "repetition" FROM run`);
  const byId = new Map(stored.map((row) => [row.id, row]));
  return rows.runs.map((run) => byId.get(run.id) ?? null);
}

/**
 * An upload's runs stored by one statement that is its own transaction, for an upload whose
 * experiment, variants and metrics its caller read beforehand (ingest-results.ts): `record`, the
 * idempotency record's INSERT … RETURNING "id" (nothing returned: the key was taken), then the
 * experiment's lock FOR SHARE, the counters, the runs, their results and series, and the mark.
 * No lock is held across a round trip, so none waits for this process to get back to the
 * connection: a busy server otherwise held its uploads' counters for most of their transactions.
 * `recorded` false: the key was taken, and nothing was written. The experiment is locked only
 * while its slug and definitionVersion are still `read`'s (the caller's read, or the copy its
 * process kept: upload-experiment-cache.ts); FOR SHARE waits for an edit holding the row and then
 * tests the row as the edit left it. A change since the read (a variant renamed or deleted, a
 * metric's unit changed, the experiment renamed or gone) thus fails the statement with the
 * database's error (a run left without a number), writing nothing, for the caller to go the long
 * way.
 */
export async function storeUploadRuns(
  db: Db,
  runs: RunOfRequest[],
  context: RunContext,
  read: { slug: string; definitionVersion: number },
  record: PrismaTypes.Sql,
): Promise<{ recorded: boolean; runs: ({ id: string; repetition: number } | null)[] }> {
  const rows = runRows(runs, context);
  const named = runs.some(({ run }) => run.gitCommit);
  const recorded = Prisma.sql`EXISTS (SELECT 1 FROM record)`;
  const stored = await preparedQuery<{ recorded: boolean; id: string | null; repetition: number | null }>(
    db,
    Prisma.sql`
    WITH record AS (${record}),
    experiment_lock AS (
      SELECT "id" FROM "Experiment"
      WHERE "id" = ${rows.experimentId} AND "slug" = ${read.slug} AND "definitionVersion" = ${read.definitionVersion} AND ${recorded}
      FOR SHARE),
    ${insertRunsSql(rows, { onlyIf: Prisma.sql`EXISTS (SELECT 1 FROM experiment_lock)`, unnumbered: "fail", insertIf: recorded })},
    marked AS (${markRunsStoredSql(rows.experimentId, Prisma.sql`${named} AND EXISTS (SELECT 1 FROM run)`)})
    SELECT ${recorded} AS "recorded", run."id", run."repetition" FROM (SELECT 1) AS one LEFT JOIN run ON TRUE`,
  );
  const byId = new Map(stored.map((row) => [row.id, row]));
  return {
    recorded: stored[0]?.recorded ?? false,
    runs: rows.runs.map((run) => {
      const row = byId.get(run.id);
      return row ? { id: run.id, repetition: row.repetition as number } : null;
    }),
  };
}

/** How long after the runs a mark is due: a burst of uploads or completes shares one refresh. */
export const MARK_DELAY_MS = 1000;

const delay = Prisma.sql`make_interval(secs => ${MARK_DELAY_MS / 1000})`;

/** The INSERT of a mark for `experimentId` when `when` holds: a CTE (`marked`) of the statement inserting the runs. */
function markRunsStoredSql(experimentId: PrismaTypes.Sql | string, when: PrismaTypes.Sql): PrismaTypes.Sql {
  return Prisma.sql`
    INSERT INTO "RunsStoredTask" ("id", "experimentId", "runAfter", "createdAt")
    SELECT ${timeOrderedId()}, ${experimentId}, ${utcNow} + ${delay}, ${utcNow} WHERE ${when}`;
}

/**
 * Marks the experiment for the background work without new runs: a confirmation batch that ended
 * without storing its last run (failed, cancelled) is settled by the next evaluation of the rules.
 */
export async function markForBackgroundWork(db: Db, experimentId: string): Promise<void> {
  await db.$executeRaw(markRunsStoredSql(experimentId, Prisma.sql`TRUE`));
}

export interface JobToStore {
  id: string;
  agentId: string;
  leaseToken: string;
  experimentId: string;
  variantId: string;
}

/**
 * The stored run, or null when nothing was written: the job was no longer leased under this
 * lease, or (still leased) its variant has no repetition numbers left.
 */
export async function storeJobRun(
  db: Db,
  job: JobToStore,
  run: RunToStore,
  metrics: { metricId: string; prepared: PreparedMetric }[],
  options: {
    sourceDetail: string;
    now: Date;
    /** The job ends failed with this error instead of succeeded: a lost shard carrying its group's partial run (server/agents/lost-shards.ts). */
    failedWith?: string;
  },
): Promise<{ id: string; repetition: number } | null> {
  const rows = runRows([{ run, variantId: job.variantId, repetition: null, metrics }], {
    experimentId: job.experimentId,
    source: "agent",
    sourceDetail: options.sourceDetail,
    now: options.now,
  });
  const runId = (rows.runs[0] as { id: string }).id;
  const stored = await preparedQuery<{ id: string; repetition: number }>(
    db,
    Prisma.sql`
    WITH done AS (
      UPDATE "Job" SET "status" = ${options.failedWith === undefined ? "succeeded" : "failed"}::"JobStatus", "runId" = ${runId}, "error" = ${options.failedWith ?? null}, "leaseExpiresAt" = NULL,
        "finishedAt" = ${utcNow}, "updatedAt" = ${utcNow}
      WHERE "id" = ${job.id} AND "agentId" = ${job.agentId} AND "leaseToken" = ${job.leaseToken} AND "status" = 'leased'
        AND (SELECT "nextRepetition" FROM "Variant" WHERE "id" = ${job.variantId}) <= ${MAX_REPETITION}
      RETURNING "id"
    ),
    ${insertRunsSql(rows, { onlyIf: Prisma.sql`EXISTS (SELECT 1 FROM done)`, unnumbered: "skip" })},
    marked AS (${markRunsStoredSql(job.experimentId, Prisma.sql`${Boolean(run.gitCommit)} AND EXISTS (SELECT 1 FROM run)`)})
    SELECT "id", "repetition" FROM run`,
  );
  const row = stored[0];
  return row ? { id: row.id, repetition: row.repetition } : null;
}
