// "Runs were stored": the one way the rest of Versus learns of new runs. Whatever stores runs with
// a commit (an upload, an import, an agent's complete) marks their experiment in the same
// transaction, so the mark commits with the runs or not at all and survives a restart; the
// background worker (server/background/) claims marks, recomputes the history's change points and
// evaluates the alert rules. Runs without a commit are in no history and mark nothing.
//
// A mark is a row of RunsStoredTask. Claiming takes every due mark of one experiment at once (a
// burst of runs is one refresh), for LEASE_SECONDS; a worker that dies lets the lease run out and
// another takes the marks. Done marks are deleted; a failed attempt gives them back with a later
// runAfter, and they are retried until the work succeeds or the experiment is deleted.
import { v7 as uuidv7 } from "uuid";
import type { Db, Prisma as PrismaTypes } from "../db/client";
import { Prisma } from "../db/generated/client";
import { utcNow } from "../db/utc-now";

/** The channel each new mark is announced on (a trigger on the table NOTIFYs at commit). */
export const RUNS_STORED_CHANNEL = "versus_runs_stored";

/** How long after the runs a mark is due: a burst of uploads or completes shares one refresh. */
export const MARK_DELAY_MS = 1000;

/** How long a claim holds its marks before another worker may take them. */
export const LEASE_SECONDS = 300;

/** Backoff after a failed attempt: doubling from 5 s, at most 10 min. */
export function retryDelayMs(attempts: number): number {
  return Math.min(600_000, 5000 * 2 ** Math.max(0, attempts - 1));
}

const delay = Prisma.sql`make_interval(secs => ${MARK_DELAY_MS / 1000})`;

/**
 * The INSERT of a mark for `experimentId` as a statement of its own or a data-modifying CTE
 * (`WITH marked AS (…)`): the agent's complete stores its run in one statement.
 */
export function markRunsStoredSql(experimentId: PrismaTypes.Sql | string, when: PrismaTypes.Sql = Prisma.sql`TRUE`): PrismaTypes.Sql {
  return Prisma.sql`
    INSERT INTO "RunsStoredTask" ("id", "experimentId", "runAfter", "createdAt")
    SELECT ${uuidv7()}, ${experimentId}, ${utcNow} + ${delay}, ${utcNow} WHERE ${when}`;
}

/** Marks the experiment's runs as stored, inside the transaction that stored them. */
export async function markRunsStored(tx: Db | PrismaTypes.TransactionClient, experimentId: string): Promise<void> {
  await tx.$executeRaw(markRunsStoredSql(experimentId));
}

export interface ClaimedMarks {
  experimentId: string;
  ids: string[];
  /** The highest attempt count among them, this claim included. */
  attempts: number;
}

/**
 * Claims the due marks of one experiment (the one waiting longest), or null when none is due.
 * `dueBy` moves "now" forward: a test or a drain need not wait for the burst delay.
 */
export async function claimRunsStored(db: Db, options: { dueWithinMs?: number } = {}): Promise<ClaimedMarks | null> {
  const horizon = Prisma.sql`${utcNow} + make_interval(secs => ${(options.dueWithinMs ?? 0) / 1000})`;
  const free = Prisma.sql`("lockedUntil" IS NULL OR "lockedUntil" < ${utcNow})`;
  const rows = await db.$queryRaw<{ id: string; experimentId: string; attempts: number }[]>(Prisma.sql`
    WITH next AS (
      SELECT "experimentId" FROM "RunsStoredTask"
      WHERE "runAfter" <= ${horizon} AND ${free}
        -- one worker per experiment: none of its marks is held by another claim
        AND NOT EXISTS (SELECT 1 FROM "RunsStoredTask" held WHERE held."experimentId" = "RunsStoredTask"."experimentId" AND held."lockedUntil" >= ${utcNow})
      ORDER BY "runAfter", "createdAt" LIMIT 1 FOR UPDATE SKIP LOCKED
    )
    UPDATE "RunsStoredTask" t SET "lockedUntil" = ${utcNow} + make_interval(secs => ${LEASE_SECONDS}), "attempts" = t."attempts" + 1
    FROM next WHERE t."experimentId" = next."experimentId" AND t."runAfter" <= ${horizon} AND (t."lockedUntil" IS NULL OR t."lockedUntil" < ${utcNow})
    RETURNING t."id", t."experimentId", t."attempts"`);
  const first = rows[0];
  if (!first) return null;
  return { experimentId: first.experimentId, ids: rows.map((r) => r.id), attempts: Math.max(...rows.map((r) => r.attempts)) };
}

/** The work of these marks is done. */
export async function finishRunsStored(db: Db, claimed: ClaimedMarks): Promise<void> {
  await db.runsStoredTask.deleteMany({ where: { id: { in: claimed.ids } } });
}

/** The work failed: give the marks back, due again after the backoff. */
export async function retryRunsStored(db: Db, claimed: ClaimedMarks, error: unknown): Promise<void> {
  const message = error instanceof Error ? error.message : String(error);
  await db.$executeRaw(Prisma.sql`
    UPDATE "RunsStoredTask" SET "lockedUntil" = NULL, "lastError" = ${message.slice(0, 2000)},
      "runAfter" = ${utcNow} + make_interval(secs => ${retryDelayMs(claimed.attempts) / 1000})
    WHERE "id" = ANY(${claimed.ids})`);
}

/** Milliseconds until the next mark is due (a claim's lease ending counts), or null when there is none. */
export async function msUntilNextMark(db: Db): Promise<number | null> {
  const rows = await db.$queryRaw<{ ms: number | null }[]>(Prisma.sql`
    SELECT EXTRACT(EPOCH FROM (MIN(GREATEST("runAfter", COALESCE("lockedUntil", "runAfter"))) - ${utcNow})) * 1000 AS "ms" FROM "RunsStoredTask"`);
  const ms = rows[0]?.ms;
  return ms === null || ms === undefined ? null : Math.max(0, Number(ms));
}
