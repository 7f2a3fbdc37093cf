// Completing a shard of a job group (docs/agent-protocol.md, "Job groups"): each shard's run
// document is kept on its job; the shard whose complete finds every other shard done is the
// last, and stores the group's ONE run, merged from all of them (server/runs/merge-shard-runs.ts).
// The group's completes are serialised by an advisory lock, so exactly one shard is the last
// however the calls interleave; the last stays leased until its merged run is stored with the
// same statement as a lone job's (storeJobRun), so a repeated complete of it stores nothing twice.
import type { Db } from "../db/client";
import type { Prisma } from "../db/generated/client";
import { mergeShardRuns, type TJobRun } from "../runs/merge-shard-runs";
import type { LeaseHolder } from "./lease";

export type ShardOutcome = { kind: "waiting" } | { kind: "lost" } | { kind: "last"; merged: TJobRun };

export async function completeShard(
  db: Db,
  holder: LeaseHolder,
  jobId: string,
  groupId: string,
  run: TJobRun,
  agentName: string,
  now = new Date(),
): Promise<ShardOutcome> {
  const outcome = await db.$transaction(
    async (tx): Promise<ShardOutcome | { kind: "all"; probeNames: string[]; shards: { agentName: string; run: TJobRun }[] }> => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${groupId}))`;
      const { count } = await tx.job.updateMany({
        where: { id: jobId, projectId: holder.projectId, agentId: holder.agentId, leaseToken: holder.leaseToken, status: "leased" },
        data: { shardRun: run as Prisma.InputJsonObject },
      });
      if (count === 0) return { kind: "lost" };
      const rows = await tx.job.findMany({
        where: { groupId },
        orderBy: { shard: "asc" },
        select: { id: true, status: true, shard: true, shardRun: true, clockOffsetMs: true, payload: true, agent: { select: { name: true } } },
      });
      const probeNames = rows.flatMap((row) => (row.payload as { probes?: { name: string }[] }).probes?.map((probe) => probe.name) ?? []);
      if (rows.every((row) => row.id === jobId || row.status === "succeeded")) {
        return {
          kind: "all",
          probeNames,
          // Each shard's clock offset and index travel with its environment into the merged run's.
          shards: rows.map((row) => {
            const shardRun = row.shardRun as TJobRun;
            return {
              agentName: row.id === jobId ? agentName : (row.agent?.name ?? `shard ${(row.shard ?? 0) + 1}`),
              run: { ...shardRun, environment: { ...shardRun.environment, shard: row.shard, clockOffsetMs: row.clockOffsetMs } },
            };
          }),
        };
      }
      await tx.job.update({ where: { id: jobId }, data: { status: "succeeded", runId: null, error: null, leaseExpiresAt: null, finishedAt: now } });
      return { kind: "waiting" };
    },
  );
  // Merged outside the lock: CPU work, and it reads only what the transaction returned.
  return outcome.kind === "all" ? { kind: "last", merged: mergeShardRuns(outcome.shards, outcome.probeNames) } : outcome;
}
