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
 * The repetition of each run, in order. An explicit repetition the variant already has is refused
 * (409): a run is never stored under another run's number. Unnumbered runs follow the highest
 * repetition stored, given in this request or ever handed out, so they never collide with the
 * explicit ones. An explicit number a concurrent upload stores first is caught by the unique
 * constraint on (variant, repetition): the upload runs again and is refused here.
 */
export async function allocateRepetitions(tx: SqlClient, runs: RunToNumber[]): Promise<number[]> {
  const explicit = runs.filter((run): run is RunToNumber & { repetition: number } => run.repetition !== undefined);
  if (explicit.length) {
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

  // Per variant: how many runs need a number, and the highest number given explicitly.
  const wanted = new Map<string, { auto: number; floor: number }>();
  for (const run of runs) {
    const entry = wanted.get(run.variantId) ?? { auto: 0, floor: 0 };
    if (run.repetition === undefined) entry.auto++;
    else entry.floor = Math.max(entry.floor, run.repetition + 1);
    wanted.set(run.variantId, entry);
  }
  const next = await takeRepetitionsOfVariants(tx, wanted);
  return runs.map((run) => {
    if (run.repetition !== undefined) return run.repetition;
    const repetition = next.get(run.variantId) as number;
    if (repetition > MAX_REPETITION) throw repetitionsExhausted(run.variantName, [...run.path, "repetition"]);
    next.set(run.variantId, repetition + 1);
    return repetition;
  });
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
 * Advances a variant's counter past `floor` (explicit numbers stored alongside) and by `count`
 * numbers, returning the counter afterwards: the numbers taken are [result - count, result). The
 * row lock of the UPDATE makes a concurrent writer wait and then see the advanced counter; the
 * highest stored repetition is a floor too, for runs written by anything that skipped the counter.
 * `onlyIf` lets a larger statement advance it only when its other parts apply.
 */
export const takeRepetitionsSql = (variantId: string, count: number, floor: number, onlyIf: Prisma.Sql = Prisma.sql`TRUE`) => Prisma.sql`
  UPDATE "Variant" SET "nextRepetition" = GREATEST(
    "nextRepetition",
    ${floor}::bigint,
    COALESCE((SELECT MAX(r."repetition")::bigint + 1 FROM "Run" r WHERE r."variantId" = ${variantId}), 0)
  ) + ${count}::bigint
  WHERE "id" = ${variantId} AND ${onlyIf}
  RETURNING "nextRepetition"`;

/**
 * takeRepetitionsSql for several variants in one statement: the first number taken of each. The
 * counters are locked in the order of the variants' ids first (`locked`), and only rows already
 * locked are updated: uploads to one experiment share its lock (upload-experiment.ts) and meet
 * here, each holding the counters it advanced until it commits, so two uploads of the same
 * variants wait for each other instead of deadlocking.
 */
async function takeRepetitionsOfVariants(tx: SqlClient, wanted: Map<string, { auto: number; floor: number }>): Promise<Map<string, number>> {
  const rows = [...wanted].map(([variantId, { auto, floor }]) => ({ variantId, count: auto, floor }));
  const taken = await tx.query<{ id: string; first: bigint }>(Prisma.sql`
    WITH wanted AS (SELECT * FROM json_to_recordset(${JSON.stringify(rows)}::json) AS w("variantId" text, "count" bigint, "floor" bigint)),
    locked AS (SELECT v."id" FROM "Variant" v WHERE v."id" IN (SELECT "variantId" FROM wanted) ORDER BY v."id" FOR NO KEY UPDATE)
    UPDATE "Variant" v SET "nextRepetition" = GREATEST(
      v."nextRepetition",
      w."floor",
      COALESCE((SELECT MAX(r."repetition")::bigint + 1 FROM "Run" r WHERE r."variantId" = v."id"), 0)
    ) + w."count"
    FROM wanted w JOIN locked l ON l."id" = w."variantId"
    WHERE v."id" = w."variantId"
    RETURNING v."id", v."nextRepetition" - w."count" AS "first"`);
  if (taken.length !== rows.length) throw new AppError("NOT_FOUND", "a variant of this upload no longer exists");
  return new Map(taken.map((row) => [row.id, Number(row.first)]));
}

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
