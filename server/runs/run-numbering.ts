// Repetition numbers of runs, and the row locks that serialize the writers of one experiment's
// numbered rows. Repetitions come from each variant's counter (Variant.nextRepetition), advanced
// in the statement that takes them, so any number of writers (uploads sharing the experiment's
// lock, agents completing jobs without it) never hand out one number twice. Positions of an
// upload's new variants and metrics are "highest so far + 1" (ingest-results.ts), which is only
// safe under the experiment's exclusive row lock (lockExperiment, upload-experiment.ts). The
// database's unique constraints (prisma/schema.prisma) hold the line behind both. Repetitions
// count from 0 per variant.
//
// Every writer of an experiment's variants and metrics (uploads creating them, edits) first takes
// its row lock FOR NO KEY UPDATE and holds it until it commits; uploads that only add runs take it
// FOR SHARE. Neither conflicts with the FOR KEY SHARE locks that foreign-key checks take, so
// readers and inserts that merely reference the experiment are not held up.
import { Prisma } from "../db/generated/client";
import { AppError, issuesSummary, type FieldIssue } from "../core/errors";
import type { SqlClient } from "../db/sql-transaction";

type Tx = Prisma.TransactionClient;

export interface RunToNumber {
  variantId: string;
  /** For messages. */
  variantName: string;
  /** Given by the uploader; otherwise the next free number is allocated. */
  repetition?: number;
  /** Where the run is in the request, e.g. ["runs", 3]. */
  path: (string | number)[];
}

/**
 * Refuses (409) an explicit repetition the variant already has: a run is never stored under
 * another run's number. An explicit number a concurrent upload stores first is caught by the
 * unique constraint on (variant, repetition): the upload runs again and is refused here.
 */
export async function refuseTakenRepetitions(tx: SqlClient, runs: RunToNumber[]): Promise<void> {
  const explicit = runs.filter((run): run is RunToNumber & { repetition: number } => run.repetition !== undefined);
  if (!explicit.length) return;
  const wanted = explicit.map((run) => ({ variantId: run.variantId, repetition: run.repetition }));
  const taken = await tx.query<{ variantId: string; repetition: number }>(Prisma.sql`
    SELECT r."variantId", r."repetition" FROM "Run" r
    JOIN json_to_recordset(${JSON.stringify(wanted)}::json) AS w("variantId" text, "repetition" int)
      ON r."variantId" = w."variantId" AND r."repetition" = w."repetition"`);
  const isTaken = new Set(taken.map((run) => `${run.variantId}:${run.repetition}`));
  const issues: FieldIssue[] = explicit
    .filter((run) => isTaken.has(`${run.variantId}:${run.repetition}`))
    .map((run) => ({
      path: [...run.path, "repetition"],
      message: `variant "${run.variantName}" already has a run with repetition ${run.repetition}; leave repetition out to number the run automatically`,
    }));
  if (issues.length) throw new AppError("CONFLICT", issuesSummary(issues), { fieldIssues: issues });
}

/** What the numbering of some runs asks of their variants' counters (takeRepetitionsSql). */
export interface Numbering {
  /** Per variant: how many numbers to take, above the highest number given explicitly. */
  variants: { variantId: string; count: number; floor: number }[];
  /** Per run, in order: an unnumbered run's place among its variant's unnumbered runs (0 for a numbered one). */
  autoIndex: number[];
}

/**
 * The counters' part of numbering these runs: unnumbered runs follow the highest repetition
 * stored, given in this request or ever handed out, so they never collide with the explicit ones.
 */
export function numberingOf(runs: { variantId: string; repetition?: number | null }[]): Numbering {
  const wanted = new Map<string, { count: number; floor: number }>();
  const autoIndex = runs.map((run) => {
    const entry = wanted.get(run.variantId) ?? { count: 0, floor: 0 };
    wanted.set(run.variantId, entry);
    if (run.repetition !== undefined && run.repetition !== null) {
      entry.floor = Math.max(entry.floor, run.repetition + 1);
      return 0;
    }
    return entry.count++;
  });
  return { variants: [...wanted].map(([variantId, entry]) => ({ variantId, ...entry })), autoIndex };
}

/** The largest repetition (the Run column is a 32-bit integer). */
export const MAX_REPETITION = 2_147_483_647;

/** An unnumbered run of a variant whose numbers were used up (an upload numbered a run MAX_REPETITION). */
export function repetitionsExhausted(variantName: string, path: (string | number)[]): AppError {
  return new AppError("UNPROCESSABLE", `variant "${variantName}" has no repetition numbers left: a run is numbered ${MAX_REPETITION}, the largest`, {
    fieldIssues: [{ path, message: `no repetition numbers left after ${MAX_REPETITION}` }],
  });
}

/**
 * The CTEs `wanted`, `locked` and `numbered` of a statement that stores runs: each variant's
 * counter advanced past `floor` (explicit numbers stored alongside) and by `count` numbers,
 * `numbered` giving each variant's first number taken ("variantId", "first"). The highest stored
 * repetition is a floor too, for runs written by anything that skipped the counter, read after
 * the wait for the counter (versus_highest_repetition, in a snapshot of its own: see its
 * migrations) and only from the counter up: below it are the runs of the writers that took it.
 * The counters are locked in the order of the variants' ids first (`locked`), and only rows
 * already locked are updated: writers of the same variants wait for each other instead
 * of deadlocking, each holding the counters it advanced until its statement's transaction
 * commits — for an upload, the one statement that also inserts its runs (store-runs.ts), so the
 * wait is that statement's and its commit's. `onlyIf` lets the statement advance them only when
 * its other parts apply.
 */
export const takeRepetitionsSql = (variants: Numbering["variants"], onlyIf: Prisma.Sql = Prisma.sql`TRUE`) => Prisma.sql`
  wanted AS (SELECT * FROM json_to_recordset(${JSON.stringify(variants)}::json) AS w("variantId" text, "count" bigint, "floor" bigint)),
  locked AS (SELECT v."id" FROM "Variant" v WHERE v."id" IN (SELECT "variantId" FROM wanted) AND ${onlyIf} ORDER BY v."id" FOR NO KEY UPDATE),
  numbered AS (
    UPDATE "Variant" v SET "nextRepetition" = GREATEST(
      v."nextRepetition",
      w."floor",
      COALESCE(versus_highest_repetition(v."id", v."nextRepetition") + 1, 0)
    ) + w."count",
    -- What the "runs inserted" trigger would set next (Variant.runsVersion, the transaction's id):
    -- set with the counter, the row is written once per upload instead of twice.
    "runsVersion" = txid_current()
    FROM wanted w JOIN locked l ON l."id" = w."variantId"
    WHERE v."id" = w."variantId"
    RETURNING v."id" AS "variantId", v."nextRepetition" - w."count" AS "first"
  )`;

/** The same explicit repetition twice for one variant in one request: refused before anything is stored. */
export function repeatedRepetitions(runs: { variant: string; repetition?: number }[]): FieldIssue[] {
  const seen = new Map<string, number>();
  const issues: FieldIssue[] = [];
  runs.forEach((run, index) => {
    if (run.repetition === undefined) return;
    const key = JSON.stringify([run.variant, run.repetition]);
    const first = seen.get(key);
    if (first === undefined) seen.set(key, index);
    else
      issues.push({
        path: ["runs", index, "repetition"],
        message: `run ${first} of this upload is already repetition ${run.repetition} of variant "${run.variant}"`,
      });
  });
  return issues;
}

/** Locks the experiment with this slug in the project until the transaction ends; its id, or null. */
export async function lockExperiment(tx: Tx, projectId: string, slug: string): Promise<string | null> {
  const rows = await tx.$queryRaw<{ id: string }[]>`SELECT "id" FROM "Experiment" WHERE "projectId" = ${projectId} AND "slug" = ${slug} FOR NO KEY UPDATE`;
  return rows[0]?.id ?? null;
}

/**
 * Locks the project against other creations of experiments until the transaction ends, so a slug
 * derived from a title is picked after every concurrent creation has committed its own.
 */
export async function lockProjectForNewExperiment(tx: Tx, projectId: string): Promise<void> {
  await tx.$queryRaw`SELECT "id" FROM "Project" WHERE "id" = ${projectId} FOR NO KEY UPDATE`;
}
