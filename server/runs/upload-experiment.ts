// The experiment an upload stores into, with its variants and metrics, read under the row lock the
// upload needs (taken first, and read in a later statement, so the read sees every change
// committed before the lock was granted):
// - "share" (FOR SHARE), for an upload that only adds runs to variants and metrics that exist:
//   such uploads share the lock and commit side by side, meeting only at their variants'
//   repetition counters (run-numbering.ts). An edit of the experiment (renaming or deleting
//   variants and metrics) takes the lock below, so none happens between the read and the commit.
// - "exclusive" (FOR NO KEY UPDATE), for an upload that creates variants or metrics: their
//   positions are "highest so far + 1", safe only while no one else adds any.
// Neither conflicts with the FOR KEY SHARE locks that foreign-key checks take.
//
// Before either, an upload reads its experiment without a lock (readUploadExperiment), or takes the
// copy its process kept of an earlier read (upload-experiment-cache.ts). When that has every
// variant and metric the upload names, the upload's one statement takes the share lock itself,
// checking the copy is current (store-runs.ts, storeUploadRuns); the transaction with the reads
// above is for the uploads that create something, give their own repetitions, or find things
// changed meanwhile.
import type { Db } from "../db/client";
import { Prisma } from "../db/generated/client";
import { preparedQuery } from "../db/prepared-statements";
import type { SqlClient } from "../db/sql-transaction";
import { earlierScaleSql } from "./prepare-metric";

export type ExperimentLock = "share" | "exclusive";

export interface UploadExperiment {
  id: string;
  slug: string;
  /** The experiment's definitionVersion when read: what a copy kept for later uploads is checked against. */
  definitionVersion: number;
  variants: { id: string; name: string; position: number }[];
  /** `histogramScale`: the scale the metric's earlier runs used, when read (null: none has one). */
  metrics: { id: string; key: string; unit: string; direction: string; position: number; histogramScale?: number | null }[];
}

/**
 * A sub-select that locks the experiment with this slug in the project until the transaction ends,
 * giving its id (NULL when there is none): for a statement of the upload's that does more (the
 * idempotency record's INSERT), saving a round trip. Read it afterwards with readLockedExperiment.
 */
export function lockExperimentSql(projectId: string, slug: string, lock: ExperimentLock) {
  const mode = lock === "share" ? Prisma.sql`FOR SHARE` : Prisma.sql`FOR NO KEY UPDATE`;
  return Prisma.sql`SELECT "id" FROM "Experiment" WHERE "projectId" = ${projectId} AND "slug" = ${slug} ${mode}`;
}

/**
 * The experiment's columns an upload reads (`e` is its row): id, slug, definition version, and its
 * variants and metrics as JSON, each metric with the histogram scale its earlier runs used when
 * `withScales`.
 */
const uploadExperimentSql = (withScales: boolean) => Prisma.sql`
    SELECT e."id", e."slug", e."definitionVersion",
      COALESCE((SELECT json_agg(json_build_object('id', v."id", 'name', v."name", 'position', v."position") ORDER BY v."position") FROM "Variant" v WHERE v."experimentId" = e."id"), '[]') AS "variants",
      COALESCE((SELECT json_agg(json_build_object('id', m."id", 'key', m."key", 'unit', m."unit", 'direction', m."direction", 'position', m."position",
          'histogramScale', CASE WHEN ${withScales} THEN (${earlierScaleSql(Prisma.sql`m."id"`)}) END) ORDER BY m."position")
        FROM "Metric" m WHERE m."experimentId" = e."id"), '[]') AS "metrics"
    FROM "Experiment" e`;

/** The experiment lockExperimentSql locked, with its variants and metrics, in a statement of its own. */
export async function readLockedExperiment(tx: SqlClient, id: string): Promise<UploadExperiment | null> {
  // One statement, not Prisma's include: that runs one query per relation at once on the
  // transaction's single connection, which node-postgres deprecates (and pg 9 refuses).
  const [row] = await tx.query<UploadExperiment>(Prisma.sql`${uploadExperimentSql(false)} WHERE e."id" = ${id}`);
  return row ?? null;
}

/**
 * The experiment an upload names, read before anything is locked (null when there is none), with
 * the histogram scales its metrics' earlier runs used when `withScales`: what an upload needs to
 * prepare its runs and, when the experiment has all it names, to store them in one statement
 * (store-runs.ts, storeUploadRuns), which takes the lock.
 */
export async function readUploadExperiment(db: Db, projectId: string, slug: string, withScales: boolean): Promise<UploadExperiment | null> {
  const [row] = await preparedQuery<UploadExperiment>(
    db,
    Prisma.sql`${uploadExperimentSql(withScales)} WHERE e."projectId" = ${projectId} AND e."slug" = ${slug}`,
  );
  return row ?? null;
}
