// Synchronized start of a job group (docs/agent-protocol.md, "Job groups"). Each shard's agent,
// once it holds its lease and is ready (connections warmed, settings checked), calls ready until
// the answer carries a start time: when the last shard is ready the server sets one instant a
// little in the future on every shard, and each agent starts its measured load then, on its own
// clock corrected by the offset it measured. A group whose shards are not all ready within
// GROUP_READY_TIMEOUT_SECONDS of the first is given back (its leased shards queued again, each
// counting its attempt) or, when a shard has no attempt left, failed; either way the error names
// the shards and agents it waited for. One group's calls are serialised by an advisory lock so
// two last shards never set two start times.
import type { Db } from "../db/client";
import { AppError } from "../core/errors";
import type { TReadyReply, TReadyRequest } from "../schemas/jobs";
import { holdsLastLease, jobOfProject, type LeaseHolder } from "./lease";
import { leaseLost } from "./lease-conflict";
import { GROUP_READY_POLL_MS, GROUP_READY_TIMEOUT_SECONDS, GROUP_START_LEAD_MS } from "./timing";
import { notifyWork } from "./wakeups";
import { lockJobGroup } from "./group-lock";

interface ShardRow {
  id: string;
  shard: number | null;
  shards: number;
  status: string;
  agentId: string | null;
  leaseToken: string | null;
  readyAt: Date | null;
  groupStartAt: Date | null;
  attempts: number;
  maxAttempts: number;
  agent: { name: string } | null;
}

/** What the shards not ready yet are waiting on, for the agents and for the error of a group given back. */
function waitingFor(rows: readonly ShardRow[]): string[] {
  return rows
    .filter((row) => !(row.status === "leased" && row.readyAt))
    .map((row) => {
      const which = `shard ${(row.shard ?? 0) + 1} of ${row.shards}`;
      return row.status === "leased" ? `${which} (agent ${row.agent?.name ?? "?"}): not ready` : `${which}: not claimed by any agent`;
    });
}

type Outcome = { reply: TReadyReply } | { lost: true } | { givenBack: string };

/** Records that this shard is ready and answers the group's start time once every shard is. */
export async function reportReady(db: Db, holder: LeaseHolder, jobId: string, input: TReadyRequest, now = new Date()): Promise<TReadyReply> {
  const outcome = await db.$transaction(async (tx): Promise<Outcome> => {
    const job = await tx.job.findFirst({ where: { id: jobId, projectId: holder.projectId }, select: { groupId: true } });
    if (!job) throw new AppError("NOT_FOUND", `No job "${jobId}" in this agent's project`);
    if (!job.groupId) throw new AppError("BAD_REQUEST", `Job "${jobId}" is not a shard of a job group: run it without calling ready`);
    await lockJobGroup(tx, job.groupId);
    const rows: ShardRow[] = await tx.job.findMany({
      where: { groupId: job.groupId },
      orderBy: { shard: "asc" },
      select: {
        id: true,
        shard: true,
        shards: true,
        status: true,
        agentId: true,
        leaseToken: true,
        readyAt: true,
        groupStartAt: true,
        attempts: true,
        maxAttempts: true,
        agent: { select: { name: true } },
      },
    });
    const mine = rows.find((row) => row.id === jobId) as ShardRow;
    if (mine.status !== "leased" || !holdsLastLease(mine, holder)) return { lost: true };
    const readyAt = mine.readyAt ?? now;
    await tx.job.update({
      where: { id: jobId },
      data: { readyAt, ...(input.clockOffsetMs !== undefined ? { clockOffsetMs: input.clockOffsetMs } : {}) },
    });
    mine.readyAt = readyAt;

    const leased = rows.filter((row) => row.status === "leased");
    let startAt = leased.find((row) => row.groupStartAt)?.groupStartAt ?? null;
    const waiting = waitingFor(rows);
    if (!startAt && waiting.length === 0) {
      startAt = new Date(now.getTime() + GROUP_START_LEAD_MS);
      await tx.job.updateMany({ where: { groupId: job.groupId }, data: { groupStartAt: startAt } });
    }
    if (!startAt) {
      const firstReady = Math.min(...leased.flatMap((row) => (row.readyAt ? [row.readyAt.getTime()] : [])));
      if (now.getTime() - firstReady > GROUP_READY_TIMEOUT_SECONDS * 1000) {
        const error = `the job group's ${rows.length} shards were not all ready within ${GROUP_READY_TIMEOUT_SECONDS} s: waited for ${waiting.join("; ")}`;
        const exhausted = leased.some((row) => row.attempts >= row.maxAttempts);
        const open = rows.filter((row) => row.status === "leased" || row.status === "queued").map((row) => row.id);
        await tx.job.updateMany({
          where: { id: { in: exhausted ? open : leased.map((row) => row.id) } },
          data: exhausted
            ? { status: "failed", error, leaseExpiresAt: null, readyAt: null, finishedAt: now }
            : { status: "queued", error, leaseExpiresAt: null, readyAt: null, runAfter: now, finishedAt: null },
        });
        return { givenBack: exhausted ? `${error}; no attempt left, so the group failed` : `${error}; the group is queued again` };
      }
    }
    return {
      reply: {
        startAt: startAt?.toISOString() ?? null,
        receivedAt: now.toISOString(),
        serverTime: new Date().toISOString(),
        ready: rows.length - waiting.length,
        shards: rows.length,
        waitingFor: waiting,
        retryAfterMs: GROUP_READY_POLL_MS,
      },
    };
  });
  // The server's t2 as late as it can be: after the commit, as the answer leaves.
  if ("reply" in outcome) return { ...outcome.reply, serverTime: new Date().toISOString() };
  if ("givenBack" in outcome) {
    await notifyWork(db, holder.projectId);
    throw new AppError("CONFLICT", outcome.givenBack, { reason: "lease_ended" });
  }
  throw leaseLost(await jobOfProject(db, holder.projectId, jobId), holder);
}
