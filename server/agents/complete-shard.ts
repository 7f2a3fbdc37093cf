// Completing a shard of a job group (docs/agent-protocol.md, "Job groups"): each shard's run
// document is kept on its job; the shard whose complete finds every other shard done is the
// last, and stores the group's ONE run, merged from all of them (server/runs/merge-shard-runs.ts).
// A shard lost mid-run in a group that stores partial runs (./lost-shards.ts) counts as done,
// and the merged run names it as missing. The group's completes are serialised by an advisory
// lock, so exactly one shard is the last however the calls interleave; the last stays leased
// until its merged run is stored with the same statement as a lone job's (storeJobRun), so a
// repeated complete of it stores nothing twice.
import type { Db } from "../db/client";
import type { Prisma } from "../db/generated/client";
import { mergeShardRuns, type MissingShard, type ShardRun } from "../runs/merge-shard-runs";
import type { TJobRun } from "../schemas/jobs";
import type { TVariantWorkload } from "../schemas/workload";
import type { LeaseHolder } from "./lease";
import { lockJobGroup } from "./group-lock";

export type ShardOutcome = { kind: "waiting" } | { kind: "lost" } | { kind: "last"; merged: TJobRun };

/** What the merge reads of each shard of a group. */
export const groupRowSelect = {
  id: true,
  status: true,
  shard: true,
  shards: true,
  shardRun: true,
  clockOffsetMs: true,
  payload: true,
  agent: { select: { name: true } },
} as const;

export interface GroupRow {
  id: string;
  status: string;
  shard: number | null;
  shards: number;
  shardRun: Prisma.JsonValue;
  clockOffsetMs: number | null;
  payload: Prisma.JsonValue;
  agent: { name: string } | null;
}

const agentOf = (row: GroupRow) => row.agent?.name ?? `shard ${(row.shard ?? 0) + 1}`;

/** A shard whose agent was lost in a group that stores partial runs: done, its share missing. */
export function isLostShard(row: Pick<GroupRow, "status" | "payload">): boolean {
  return row.status === "failed" && (row.payload as TVariantWorkload).onShardLoss === "partial";
}

/**
 * What the group's merged run is made of: every finished shard's run (with `run` standing for the
 * shard `jobId` completing now), the probes the group samples, and the shards lost mid-run.
 */
export function groupParts(rows: readonly GroupRow[], completing?: { jobId: string; agentName: string; run: TJobRun }) {
  const probeNames = rows.flatMap((row) => (row.payload as Pick<TVariantWorkload, "probes">).probes?.map((probe) => probe.name) ?? []);
  const missing: MissingShard[] = rows.filter(isLostShard).map((row) => ({ shard: row.shard ?? 0, shards: row.shards, agentName: agentOf(row) }));
  // Each shard's clock offset and index travel with its environment into the merged run's.
  const shards: ShardRun[] = rows
    .filter((row) => row.id === completing?.jobId || row.status === "succeeded")
    .map((row) => {
      const shardRun = row.id === completing?.jobId ? completing.run : (row.shardRun as TJobRun);
      return {
        agentName: row.id === completing?.jobId ? completing.agentName : agentOf(row),
        run: { ...shardRun, environment: { ...shardRun.environment, shard: row.shard, clockOffsetMs: row.clockOffsetMs } },
      };
    });
  return { shards, probeNames, missing };
}

export async function completeShard(
  db: Db,
  holder: LeaseHolder,
  jobId: string,
  groupId: string,
  run: TJobRun,
  agentName: string,
  now = new Date(),
): Promise<ShardOutcome> {
  const outcome = await db.$transaction(async (tx): Promise<ShardOutcome | ({ kind: "all" } & ReturnType<typeof groupParts>)> => {
    await lockJobGroup(tx, groupId);
    const { count } = await tx.job.updateMany({
      where: { id: jobId, projectId: holder.projectId, agentId: holder.agentId, leaseToken: holder.leaseToken, status: "leased" },
      data: { shardRun: run as Prisma.InputJsonObject },
    });
    if (count === 0) return { kind: "lost" };
    const rows: GroupRow[] = await tx.job.findMany({ where: { groupId }, orderBy: { shard: "asc" }, select: groupRowSelect });
    if (rows.every((row) => row.id === jobId || row.status === "succeeded" || isLostShard(row))) {
      return { kind: "all", ...groupParts(rows, { jobId, agentName, run }) };
    }
    await tx.job.update({ where: { id: jobId }, data: { status: "succeeded", runId: null, error: null, leaseExpiresAt: null, finishedAt: now } });
    return { kind: "waiting" };
  });
  // Merged outside the lock: CPU work, and it reads only what the transaction returned.
  return outcome.kind === "all" ? { kind: "last", merged: mergeShardRuns(outcome.shards, outcome.probeNames, outcome.missing) } : outcome;
}
