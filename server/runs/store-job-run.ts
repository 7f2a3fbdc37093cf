// The write of an agent's complete, in one SQL statement (so one round trip and its own
// transaction): mark the job succeeded under the lease presented, take the next repetition from
// the variant's counter, insert the run, its metric results and time series (store-runs.ts, as
// uploads insert theirs), mark the runs stored when the run names a commit (runs-stored.ts), and
// touch the experiment. Everything before it — checking the metrics against the experiment and
// preparing summaries, histograms and compressed samples — is the same code as an upload's ingest
// (ingest-results.ts); what is left out is what a job needs not: its run always goes to an
// experiment, variant and metrics that exist, and the job row itself is the idempotency record.
//
// Concurrency: a second complete of the same job waits on the job's row lock in `done`, then finds
// it no longer leased and writes nothing. Completes of different jobs of one variant wait only for
// each other's counter update, never for the experiment's lock that uploads take.
import { type Db } from "../db/client";
import { preparedQuery } from "../db/prepared-statements";
import { Prisma } from "../db/generated/client";
import type { PreparedMetric } from "./prepare-metric";
import { MAX_REPETITION, takeRepetitionsSql } from "./run-numbering";
import { markRunsStoredSql } from "./runs-stored";
import { insertRunsSql, runRows, type RunToStore } from "./store-runs";
import { utcNow } from "../db/utc-now";

export interface JobToStore {
  id: string;
  agentId: string;
  leaseToken: string;
  experimentId: string;
  variantId: string;
}

export type { RunToStore };

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
  const rows = runRows([{ run, variantId: job.variantId, repetition: null, metrics }], { experimentId: job.experimentId, source: "agent", sourceDetail: options.sourceDetail, now: options.now });
  const runId = (rows.runs[0] as { id: string }).id;
  const stored = await preparedQuery<{ id: string; repetition: number; touchDue: boolean | null }>(db, Prisma.sql`
    WITH done AS (
      UPDATE "Job" SET "status" = 'succeeded', "runId" = ${runId}, "error" = NULL, "leaseExpiresAt" = NULL,
        "finishedAt" = ${utcNow}, "updatedAt" = ${utcNow}
      WHERE "id" = ${job.id} AND "agentId" = ${job.agentId} AND "leaseToken" = ${job.leaseToken} AND "status" = 'leased'
        AND (SELECT "nextRepetition" FROM "Variant" WHERE "id" = ${job.variantId}) <= ${MAX_REPETITION}
      RETURNING "id"
    ),
    numbered AS (${takeRepetitionsSql(job.variantId, 1, 0, Prisma.sql`EXISTS (SELECT 1 FROM done)`)}),
    ${insertRunsSql(rows, { numbered: "numbered" })},
    marked AS (${markRunsStoredSql(job.experimentId, Prisma.sql`${Boolean(run.gitCommit)} AND EXISTS (SELECT 1 FROM run)`)})
    -- Whether the experiment's last change is a second old (see touchExperiment).
    SELECT "id", "repetition",
      (SELECT e."updatedAt" < ${utcNow} - interval '1 second' FROM "Experiment" e WHERE e."id" = ${job.experimentId}) AS "touchDue"
    FROM run`);
  const row = stored[0];
  if (!row) return null;
  if (row.touchDue) await touchExperiment(db, job.experimentId);
  return { id: row.id, repetition: row.repetition };
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
