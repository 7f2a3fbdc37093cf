// A shard of a job group whose lease expired: its agent stopped renewing it mid-run (it crashed,
// hung or lost the network). A lone job is simply offered again (./claim.ts); a shard cannot be,
// since its share of the load ran beside the others at one start time. So the claim settles lost
// shards group by group, per the variant's onShardLoss (server/schemas/workload.ts):
// - "fail" (the default): the whole group is queued again when the lost shard has attempts left
//   (every shard starts over together, the runs finished shards kept are dropped), or else the
//   group fails naming the lost agent; no run is stored.
// - "partial" (for a group that had started; one lost before its start starts over as under
//   "fail"): the lost shard fails, its share missing; once every other shard is done, the
//   group's run is stored from theirs, marked partial (a run warning and environment.missingShards
//   name the lost agents). When the others are already done, the run is stored here, on the lost
//   shard's job (the one still leased): storeJobRun's conditional write stores it once however
//   many claims settle the group at the same moment; when some still run, the last one's complete
//   stores it (./complete-shard.ts).
import type { Db } from "../db/client";
import { utcNow } from "../db/utc-now";
import { mergeShardRuns } from "../runs/merge-shard-runs";
import type { TVariantWorkload } from "../schemas/workload";
import { settleConfirmationOf } from "./confirmation-wakeup";
import { storeRunOfJob } from "./store-job-run";
import { groupParts, groupRowSelect, isLostShard, type GroupRow } from "./complete-shard";
import { followFailedShard } from "./group-failure";
import { backoffSeconds } from "./timing";
import { notifyWork } from "./wakeups";
import { lockJobGroup } from "./group-lock";

type Row = GroupRow & {
  attempts: number;
  maxAttempts: number;
  cancelRequested: boolean;
  warmup: boolean;
  agentId: string | null;
  leaseToken: string | null;
  batchId: string;
  experimentId: string;
  variantId: string;
  groupStartAt: Date | null;
};

/** What settling one group left to do after its transaction. */
type Settled =
  | { kind: "none" }
  | { kind: "moved"; status: "queued" | "failed" | "cancelled"; job: Row }
  | { kind: "partial"; carrier: Row | null; error: string; rows: Row[] };

/** Settles every group of the project with a shard whose lease expired. */
export async function settleLostShards(db: Db, projectId: string, now = new Date()): Promise<void> {
  const groups = await db.$queryRaw<{ groupId: string }[]>`
    SELECT DISTINCT "groupId" FROM "Job"
    WHERE "projectId" = ${projectId} AND "status" = 'leased' AND "leaseExpiresAt" < ${utcNow} AND "groupId" IS NOT NULL
    LIMIT 20`;
  for (const { groupId } of groups) await settleGroup(db, projectId, groupId, now);
}

const expiredError = (row: Row) =>
  `shard ${(row.shard ?? 0) + 1} of ${row.shards}: the lease expired on attempt ${row.attempts} of ${row.maxAttempts}, agent ${row.agent?.name ?? "?"} stopped renewing it (it crashed, hung or lost the network)`;

async function settleGroup(db: Db, projectId: string, groupId: string, now: Date): Promise<void> {
  const settled = await db.$transaction(async (tx): Promise<Settled> => {
    // The group's lock (./group-lock.ts): a shard completing now is seen done, or sees this.
    await lockJobGroup(tx, groupId);
    const expired = await tx.$queryRaw<{ id: string }[]>`
      SELECT "id" FROM "Job" WHERE "groupId" = ${groupId} AND "status" = 'leased' AND "leaseExpiresAt" < ${utcNow}`;
    if (expired.length === 0) return { kind: "none" };
    const lostIds = new Set(expired.map((row) => row.id));
    const rows: Row[] = await tx.job.findMany({
      where: { groupId },
      orderBy: { shard: "asc" },
      select: {
        ...groupRowSelect,
        attempts: true,
        maxAttempts: true,
        cancelRequested: true,
        warmup: true,
        agentId: true,
        leaseToken: true,
        batchId: true,
        experimentId: true,
        variantId: true,
        groupStartAt: true,
      },
    });
    const lost = rows.filter((row) => lostIds.has(row.id));
    const first = lost[0] as Row;
    const error = lost.map(expiredError).join("; ");

    // A group lost before its start measured nothing yet: it starts over as a whole whatever the setting.
    const partial = (first.payload as TVariantWorkload).onShardLoss === "partial" && first.groupStartAt !== null;
    if (!partial || lost.some((row) => row.cancelRequested)) {
      const status = lost.some((row) => row.cancelRequested) ? "cancelled" : lost.every((row) => row.attempts < row.maxAttempts) ? "queued" : "failed";
      const runAfter = new Date(now.getTime() + backoffSeconds(first.attempts) * 1000);
      await followFailedShard(
        tx,
        { id: first.id, groupId, shard: first.shard ?? 0, shards: first.shards, agentName: first.agent?.name ?? "?" },
        { status, error, runAfter },
        now,
      );
      await tx.job.updateMany({
        where: { id: { in: [...lostIds] } },
        data: {
          status,
          error: status === "queued" ? `${error}; the whole group runs again` : error,
          leaseExpiresAt: null,
          readyAt: null,
          ...(status === "queued" ? { runAfter, finishedAt: null } : { finishedAt: now }),
        },
      });
      return { kind: "moved", status, job: first };
    }

    // Partial: the lost shards are done, their share missing.
    const partialError = `${error}; the group's run is stored partial, without ${lost.length === 1 ? "this shard's share" : "these shards' shares"}`;
    const after = rows.map((row) => (lostIds.has(row.id) ? { ...row, status: "failed" } : row));
    const done = after.every((row) => row.status === "succeeded" || isLostShard(row));
    const measured = !first.warmup && after.some((row) => row.status === "succeeded");
    // Every other shard done: the run is stored on the first lost shard, which stays leased until then.
    const carrier = done && measured ? first : null;
    await tx.job.updateMany({
      where: { id: { in: lost.filter((row) => row !== carrier).map((row) => row.id) } },
      data: { status: "failed", error: partialError, leaseExpiresAt: null, readyAt: null, finishedAt: now },
    });
    return { kind: "partial", carrier, error: partialError, rows: after };
  });

  if (settled.kind === "none") return;
  if (settled.kind === "moved") {
    if (settled.status === "queued") await notifyWork(db, projectId);
    else await settleConfirmationOf(db, settled.job);
    return;
  }
  const { carrier, rows } = settled;
  if (!carrier) return void (await settleConfirmationOf(db, rows[0] as Row));
  const parts = groupParts(rows);
  const merged = mergeShardRuns(parts.shards, parts.probeNames, parts.missing);
  const experiment = await db.experiment.findUniqueOrThrow({
    where: { id: carrier.experimentId },
    select: { slug: true, metrics: { select: { id: true, key: true } } },
  });
  await storeRunOfJob(
    db,
    { projectId, slug: experiment.slug, metricIds: new Map(experiment.metrics.map((metric) => [metric.key, metric.id])) },
    {
      id: carrier.id,
      agentId: carrier.agentId as string,
      leaseToken: carrier.leaseToken as string,
      experimentId: carrier.experimentId,
      variantId: carrier.variantId,
    },
    merged,
    { sourceDetail: merged.sourceDetail ?? `${parts.shards.length} agents`, now, failedWith: settled.error },
  );
  await settleConfirmationOf(db, carrier);
}
