// The write of an agent's complete, in one SQL statement (so one round trip and its own
// transaction): mark the job succeeded under the lease presented, take the next repetition from
// the variant's counter, insert the run, its metric results and time series, mark the runs
// stored when the run names a commit (runs-stored.ts), and touch the experiment. Everything before it — checking the metrics against the experiment and preparing
// summaries, histograms and compressed samples — is the same code as an upload's ingest
// (server/runs/ingest-results.ts); only the write is leaner, because a job's run always goes to an
// experiment, variant and metrics that exist, and the job row itself is the idempotency record.
//
// Concurrency: a second complete of the same job waits on the job's row lock in `done`, then finds
// it no longer leased and writes nothing. Completes of different jobs of one variant wait only for
// each other's counter update, never for the experiment's lock that uploads take.
import { v7 as uuidv7 } from "uuid";
import { type Db } from "../db/client";
import { preparedQuery } from "../db/prepared-statements";
import { Prisma } from "../db/generated/client";
import type { PreparedMetric } from "./prepare-metric";
import type { TRunInput } from "../schemas/results";
import { MAX_REPETITION, takeRepetitionsSql } from "./run-numbering";
import { markRunsStoredSql } from "./runs-stored";
import { utcNow } from "../db/utc-now";

export interface JobToStore {
  id: string;
  agentId: string;
  leaseToken: string;
  experimentId: string;
  variantId: string;
}

export type RunToStore = Pick<TRunInput, "status" | "startedAt" | "finishedAt" | "environment" | "gitCommit" | "gitBranch" | "gitCommitMessage" | "gitCommitTime" | "tags" | "sourceDetail">;

/**
 * The stored run, or null when nothing was written: the job was no longer leased under this
 * lease, or (still leased) its variant has no repetition numbers left.
 */
export async function storeJobRun(
  db: Db,
  job: JobToStore,
  run: RunToStore,
  metrics: { metricId: string; prepared: PreparedMetric }[],
  options: { sourceDetail: string; now: Date },
): Promise<{ id: string; repetition: number } | null> {
  // Time-ordered ids, so runs stored in one millisecond still sort in the order they were stored.
  const runId = uuidv7();
  const startedAt = run.startedAt ? new Date(run.startedAt) : null;
  const finishedAt = run.finishedAt ? new Date(run.finishedAt) : startedAt ? null : options.now;
  const results = metrics.map(({ metricId, prepared }) => ({
    id: uuidv7(),
    metricId,
    ...prepared.result,
    n: prepared.result.n.toString(),
    histogram: prepared.result.histogram && Buffer.from(prepared.result.histogram).toString("base64"),
    samples: prepared.result.samples && Buffer.from(prepared.result.samples).toString("base64"),
  }));
  const series = metrics.flatMap(({ metricId, prepared }) =>
    prepared.timeSeries ? [{ id: uuidv7(), metricId, startedAt: prepared.timeSeries.startedAt.toISOString(), offsetsMs: prepared.timeSeries.offsetsMs, values: prepared.timeSeries.values }] : [],
  );
  const timestamp = (date: Date | null) => (date ? date.toISOString() : null);

  const rows = await preparedQuery<{ id: string; repetition: number; touchDue: boolean | null }>(db, Prisma.sql`
    WITH done AS (
      UPDATE "Job" SET "status" = 'succeeded', "runId" = ${runId}, "error" = NULL, "leaseExpiresAt" = NULL,
        "finishedAt" = ${utcNow}, "updatedAt" = ${utcNow}
      WHERE "id" = ${job.id} AND "agentId" = ${job.agentId} AND "leaseToken" = ${job.leaseToken} AND "status" = 'leased'
        AND (SELECT "nextRepetition" FROM "Variant" WHERE "id" = ${job.variantId}) <= ${MAX_REPETITION}
      RETURNING "id"
    ),
    numbered AS (${takeRepetitionsSql(job.variantId, 1, 0, Prisma.sql`EXISTS (SELECT 1 FROM done)`)}),
    run AS (
      INSERT INTO "Run" ("id", "experimentId", "variantId", "status", "source", "sourceDetail", "repetition", "startedAt", "finishedAt", "environment", "gitCommit", "gitBranch", "gitCommitMessage", "gitCommitTime", "tags", "createdAt")
      SELECT ${runId}, ${job.experimentId}, ${job.variantId}, ${run.status}::"RunStatus", 'agent'::"RunSource", ${run.sourceDetail ?? options.sourceDetail},
        numbered."nextRepetition" - 1, ${timestamp(startedAt)}::timestamp, ${timestamp(finishedAt)}::timestamp, ${JSON.stringify(run.environment)}::jsonb,
        ${run.gitCommit ?? null}, ${run.gitBranch ?? null}, ${run.gitCommitMessage ?? null}, ${timestamp(run.gitCommitTime ? new Date(run.gitCommitTime) : null)}::timestamp,
        ARRAY(SELECT json_array_elements_text(${JSON.stringify(run.tags)}::json)), ${utcNow}
      FROM numbered
      RETURNING "id", "repetition"
    ),
    results AS (
      INSERT INTO "RunMetricResult" ("id", "runId", "metricId", "n", "mean", "sd", "min", "max", "p50", "p90", "p95", "p99", "p999", "sum", "value", "histogram", "histogramScale", "samples", "createdAt")
      SELECT r."id", run."id", r."metricId", r."n", r."mean", r."sd", r."min", r."max", r."p50", r."p90", r."p95", r."p99", r."p999", r."sum", r."value",
        decode(r."histogram", 'base64'), r."histogramScale", decode(r."samples", 'base64'), ${utcNow}
      FROM run, json_to_recordset(${JSON.stringify(results)}::json) AS r(
        "id" text, "metricId" text, "n" bigint, "mean" float8, "sd" float8, "min" float8, "max" float8, "p50" float8, "p90" float8,
        "p95" float8, "p99" float8, "p999" float8, "sum" float8, "value" float8, "histogram" text, "histogramScale" float8, "samples" text)
    ),
    series AS (
      INSERT INTO "RunTimeSeries" ("id", "runId", "metricId", "startedAt", "offsetsMs", "values", "createdAt")
      SELECT s."id", run."id", s."metricId", s."startedAt", s."offsetsMs", s."values", ${utcNow}
      FROM run, json_to_recordset(${JSON.stringify(series)}::json) AS s("id" text, "metricId" text, "startedAt" timestamp, "offsetsMs" float8[], "values" float8[])
    ),
    marked AS (${markRunsStoredSql(job.experimentId, Prisma.sql`${Boolean(run.gitCommit)} AND EXISTS (SELECT 1 FROM run)`)})
    -- Whether the experiment's last change is a second old (see touchExperiment).
    SELECT "id", "repetition",
      (SELECT e."updatedAt" < ${utcNow} - interval '1 second' FROM "Experiment" e WHERE e."id" = ${job.experimentId}) AS "touchDue"
    FROM run`);
  const stored = rows[0];
  if (!stored) return null;
  if (stored.touchDue) await touchExperiment(db, job.experimentId);
  return { id: stored.id, repetition: stored.repetition };
}

/**
 * The experiments list sorts by last change; once a second is often enough. In a statement of its
 * own, after the run's: inside that one, waiting for an upload's lock on the experiment (even
 * under SKIP LOCKED, PostgreSQL may wait for a row version being updated) while holding the
 * variant's counter deadlocked with the upload, which takes them the other way round. Here it
 * holds nothing else, and a row locked by an upload (which touches it itself) is skipped.
 */
async function touchExperiment(db: Db, experimentId: string): Promise<void> {
  await preparedQuery(db, Prisma.sql`
    UPDATE "Experiment" SET "updatedAt" = ${utcNow}
    WHERE "id" = (SELECT "id" FROM "Experiment" WHERE "id" = ${experimentId} AND "updatedAt" < ${utcNow} - interval '1 second' FOR NO KEY UPDATE SKIP LOCKED)`);
}
