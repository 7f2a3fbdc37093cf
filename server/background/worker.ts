// The background worker each server process runs (scripts/serve.ts starts it, unless
// VERSUS_BACKGROUND_WORKER=0): it claims the "runs stored" marks of one experiment at a time
// (server/runs/runs-stored.ts), does what follows them (after-runs-stored.ts), and waits for the
// next mark on LISTEN (server/db/wakeups.ts) or until the next one is due — never polling the
// table in a loop. Several processes share the work through the claims; a failure is logged and
// retried with backoff, never lost.
import type { Db } from "../db/client";
import { Wakeups } from "../db/wakeups";
import { isDatabaseUnavailable } from "../db/unavailable";
import { claimRunsStored, finishRunsStored, msUntilNextMark, retryRunsStored, RUNS_STORED_CHANNEL, type ClaimedMarks } from "../runs/runs-stored";
import { afterRunsStored } from "./after-runs-stored";

/** Longest wait without a notification: expired claims and ended backoffs are never announced. */
const IDLE_RECHECK_MS = 30_000;
/** Wait after the database could not be reached. */
const UNAVAILABLE_BACKOFF_MS = 5000;

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
    log(`background: the work after new runs of experiment ${claimed.experimentId} failed (attempt ${claimed.attempts}); retrying later: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    await retryRunsStored(db, claimed, error);
    return;
  }
  await finishRunsStored(db, claimed);
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
