// A shard of a job group that failed: the group cannot be measured by fewer agents than it asked
// for, so its other shards follow. Failed for good (no attempt left, not retryable, cancelled):
// the group's open shards end with an error naming the shard and agent that failed, and no run
// is stored. Retried: every shard of the group goes back to the queue together, the runs its
// finished shards kept dropped, so the group starts again as one, at one start time.
import type { Db } from "../db/client";

export async function followFailedShard(
  db: Pick<Db, "job" | "$executeRaw">,
  failed: { id: string; groupId: string; shard: number; shards: number; agentName: string },
  outcome: { status: "queued" | "failed" | "cancelled"; error: string; runAfter: Date },
  now = new Date(),
): Promise<void> {
  const others = { groupId: failed.groupId, id: { not: failed.id } };
  if (outcome.status === "queued") {
    await db.job.updateMany({
      where: { ...others, status: { in: ["leased", "succeeded"] } },
      data: {
        status: "queued",
        readyAt: null,
        groupStartAt: null,
        leaseExpiresAt: null,
        runAfter: outcome.runAfter,
        finishedAt: null,
        error: `shard ${failed.shard + 1} of ${failed.shards} (agent ${failed.agentName}) failed, so the whole group runs again: ${outcome.error}`,
      },
    });
    await db.$executeRaw`UPDATE "Job" SET "shardRun" = NULL, "groupStartAt" = NULL WHERE "groupId" = ${failed.groupId}`;
    return;
  }
  await db.job.updateMany({
    where: { ...others, status: { in: ["queued", "leased", "succeeded"] } },
    data: {
      status: outcome.status,
      leaseExpiresAt: null,
      finishedAt: now,
      error: `shard ${failed.shard + 1} of ${failed.shards} (agent ${failed.agentName}) ${outcome.status === "cancelled" ? "was cancelled" : "failed"}: the group's run is not stored, it would be measured by fewer agents than asked (${outcome.error})`,
    },
  });
}
