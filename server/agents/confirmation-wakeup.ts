// A confirmation batch (server/regressions/confirmation.ts) is settled by the evaluation of its
// experiment's rules that runs after runs are stored. One that ends without storing its last run
// — a job failed for good, the batch cancelled — would wait for the experiment's next runs, so
// its end marks the experiment for that work itself: the alert then opens, saying why.
import type { Db } from "../db/client";
import { markForBackgroundWork } from "../runs/store-runs";

export async function settleConfirmationOf(db: Db, job: { batchId: string; experimentId: string }): Promise<void> {
  const waiting = await db.alert.count({ where: { confirmBatchId: job.batchId, status: "confirming" } });
  if (waiting > 0) await markForBackgroundWork(db, job.experimentId);
}
