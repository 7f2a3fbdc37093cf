// What follows new runs of an experiment (server/runs/runs-stored.ts marks them): its history's
// change points are recomputed, then its alert rules are evaluated against the runs and the
// change points now stored. Both are idempotent — a retry after a failure, or after a worker died
// half-way, recomputes the same change points and opens no alert twice.
import type { Db } from "../db/client";
import { refreshChangePoints } from "../history/change-point-store";
import { evaluateAlertRules } from "../regressions/evaluate-rules";

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
