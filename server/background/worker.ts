// The background worker each server process runs (scripts/serve.ts starts it, unless
// VERSUS_BACKGROUND_WORKER=0), and the work after runs are stored. Whatever stores runs with a
// commit marks their experiment in the same transaction (server/runs/store-runs.ts); the worker
// claims the marks of one experiment at a time, recomputes its history's change points, then
// evaluates its alert rules against the runs and the change points now stored, and waits for the
// next mark on LISTEN (server/db/wakeups.ts) or until the next one is due — never polling the
// table in a loop.
//
// A claim is of one experiment with a due mark, and takes every free mark of it at once, due or not
// (one waiting out a failed attempt's backoff too: the refresh redoes its work anyway): a mark is
// committed with its runs, so the refresh reads them all, and the next refresh waits for a mark
// stored after it to come due. A burst of runs is one refresh, and under a steady stream of uploads
// an experiment is refreshed about once per MARK_DELAY_MS (store-runs.ts); taking only the due
// marks, the next one was always due, and the worker refreshed the same experiment back to back.
// Claims hold their marks for LEASE_SECONDS; a worker that dies lets the lease run out and another
// takes the marks. Done marks are deleted; a failed attempt gives them back with a later runAfter,
// and they are retried until the work succeeds or the experiment is deleted. The work is idempotent
// — a retry after a failure, or after a worker died half-way, recomputes the same change points and
// opens no alert twice. Several processes share the work through the claims; a failure is logged
// and retried with backoff, never lost.
import type { Db } from "../db/client";
import { Prisma } from "../db/generated/client";
import { utcNow } from "../db/utc-now";
import { Wakeups } from "../db/wakeups";
import { isDatabaseUnavailable } from "../db/unavailable";
import { refreshChangePoints } from "../history/change-point-store";
import { evaluateAlertRules } from "../regressions/evaluate-rules";

/** The channel each new mark is announced on (a trigger on the table NOTIFYs at commit). */
export const RUNS_STORED_CHANNEL = "versus_runs_stored";

/** How long a claim holds its marks before another worker may take them. */
export const LEASE_SECONDS = 300;

/** Backoff after a failed attempt: doubling from 5 s, at most 10 min. */
export function retryDelayMs(attempts: number): number {
  return Math.min(600_000, 5000 * 2 ** Math.max(0, attempts - 1));
}

/** Longest wait without a notification: expired claims and ended backoffs are never announced. */
const IDLE_RECHECK_MS = 30_000;
/** Wait after the database could not be reached. */
const UNAVAILABLE_BACKOFF_MS = 5000;

export interface ClaimedMarks {
  experimentId: string;
  ids: string[];
  /** The highest attempt count among them, this claim included. */
  attempts: number;
}

/**
 * Claims the marks of one experiment with a due mark (the one waiting longest): all its free marks,
 * due or not. Null when no mark is due.
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
    FROM next WHERE t."experimentId" = next."experimentId" AND (t."lockedUntil" IS NULL OR t."lockedUntil" < ${utcNow})
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

/** Does the work of one claim; false when nothing was due. */
export async function workOnce(db: Db, options: { dueWithinMs?: number; log?: (line: string) => void } = {}): Promise<boolean> {
  const claimed = await claimRunsStored(db, options);
  if (!claimed) return false;
  await work(db, claimed, options.log ?? ((line) => console.error(line)));
  return true;
}

async function work(db: Db, claimed: ClaimedMarks, log: (line: string) => void): Promise<void> {
  try {
    await afterRunsStored(db, claimed.experimentId);
  } catch (error) {
    log(
      `background: the work after new runs of experiment ${claimed.experimentId} failed (attempt ${claimed.attempts}); retrying later: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    );
    await retryRunsStored(db, claimed, error);
    return;
  }
  await finishRunsStored(db, claimed);
}

/** Throws when the work failed (the marks are then retried); an experiment deleted meanwhile is no failure. */
export async function afterRunsStored(db: Db, experimentId: string): Promise<void> {
  try {
    await refreshChangePoints(db, experimentId);
    await evaluateAlertRules(db, experimentId);
  } catch (error) {
    if (await stillThere(db, experimentId)) throw error;
  }
}

/** Whether the experiment still exists (true when that cannot be told: the failure then counts). */
async function stillThere(db: Db, experimentId: string): Promise<boolean> {
  try {
    return (await db.experiment.count({ where: { id: experimentId } })) > 0;
  } catch {
    return true;
  }
}

/**
 * Does all the work there is now, due or not yet due (tests, benchmarks, a one-off script). Work
 * that fails is given back for a worker to retry later, once per experiment: the drain ends when
 * only such work is left.
 */
export async function drainBackgroundWork(db: Db): Promise<void> {
  const failed = new Set<string>();
  for (;;) {
    const claimed = await claimRunsStored(db, { dueWithinMs: 24 * 3_600_000 });
    if (!claimed) return;
    if (failed.has(claimed.experimentId)) {
      await retryRunsStored(db, claimed, "left for a worker after a failed attempt");
      return;
    }
    let ok = true;
    await work(db, claimed, (line) => {
      ok = false;
      console.error(line);
    });
    if (!ok) failed.add(claimed.experimentId);
  }
}

/** Runs until `signal` aborts. */
export async function runBackgroundWorker(db: Db, databaseUrl: string, signal: AbortSignal): Promise<void> {
  const wakeups = new Wakeups(databaseUrl, RUNS_STORED_CHANNEL, "background worker");
  signal.addEventListener("abort", () => void wakeups.close(), { once: true });
  await wakeups.ready();
  while (!signal.aborted) {
    // Subscribe before looking, so a mark stored between the look and the wait still wakes us.
    const subscription = wakeups.subscribe("*");
    try {
      if (await workOnce(db)) continue;
      const dueIn = await msUntilNextMark(db);
      await subscription.wait(Math.min(dueIn ?? IDLE_RECHECK_MS, IDLE_RECHECK_MS), signal);
    } catch (error) {
      if (!isDatabaseUnavailable(error)) console.error("background worker:", error);
      await subscription.wait(UNAVAILABLE_BACKOFF_MS, signal);
    } finally {
      subscription.cancel();
    }
  }
}
