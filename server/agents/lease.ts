// What an agent does with a job it holds, besides completing it: renew the lease, fail the
// attempt (retried after a backoff until maxAttempts), or release the job (no attempt counted).
// Every write is conditional on the lease (job, agent, token, still leased), so a stale agent
// cannot touch a job another agent now holds; a call repeated after it succeeded answers as the
// first did while the job still carries that lease token.
import type { Db } from "../db/client";
import { settleConfirmationOf } from "./confirmation-wakeup";
import { followFailedShard } from "./group-failure";
import { AppError } from "../core/errors";
import type { TFailReply, TFailRequest, TLeaseReply, TReleaseReply } from "../schemas/jobs";
import type { Claimant } from "./claim";
import { utcNow } from "../db/utc-now";
import { leaseLost, type JobLeaseState } from "./lease-conflict";
import { backoffSeconds, LEASE_SECONDS } from "./timing";
import { notifyWork } from "./wakeups";

export interface LeaseHolder extends Claimant {
  leaseToken: string;
}

export type JobState = JobLeaseState & { runAfter: Date; cancelRequested: boolean };

/** The job as this agent's project sees it: 404 for a job of another project or none at all. */
export async function jobOfProject(db: Db, projectId: string, jobId: string): Promise<JobState> {
  const job = await db.job.findFirst({
    where: { id: jobId, projectId },
    select: {
      id: true,
      status: true,
      agentId: true,
      leaseToken: true,
      runAfter: true,
      cancelRequested: true,
      attempts: true,
      maxAttempts: true,
      agent: { select: { name: true } },
    },
  });
  if (!job) throw new AppError("NOT_FOUND", `No job "${jobId}" in this agent's project`);
  const { agent, ...state } = job;
  return { ...state, agentName: agent?.name ?? null };
}

/** Whether the last lease of `job` is the one this agent presents. */
export function holdsLastLease(job: Pick<JobState, "leaseToken" | "agentId">, holder: LeaseHolder): boolean {
  return job.leaseToken === holder.leaseToken && job.agentId === holder.agentId;
}

/**
 * Extends the lease by LEASE_SECONDS from now. A lease that expired but was not taken by
 * another agent is still this agent's and is renewed. The reply says whether a user cancelled.
 */
export async function renewLease(db: Db, holder: LeaseHolder, jobId: string): Promise<TLeaseReply> {
  const rows = await db.$queryRaw<{ leaseExpiresAt: Date; cancelRequested: boolean }[]>`
    UPDATE "Job" SET "leaseExpiresAt" = ${utcNow} + make_interval(secs => ${LEASE_SECONDS}::float8), "updatedAt" = ${utcNow}
    WHERE "id" = ${jobId} AND "projectId" = ${holder.projectId} AND "agentId" = ${holder.agentId}
      AND "leaseToken" = ${holder.leaseToken} AND "status" = 'leased'
    RETURNING "leaseExpiresAt", "cancelRequested"`;
  const row = rows[0];
  if (row) return { leaseExpiresAt: row.leaseExpiresAt.toISOString(), cancelRequested: row.cancelRequested };
  throw leaseLost(await jobOfProject(db, holder.projectId, jobId), holder);
}

/**
 * Ends an attempt that failed. Retryable, with attempts left and no cancellation: back to the
 * queue after a backoff (5 s, 10 s, 20 s, … ≤ 5 min). Otherwise final: failed with its error and
 * log tail, or cancelled when the agent acknowledges a cancellation (or one was requested).
 */
export async function failJob(db: Db, holder: LeaseHolder, jobId: string, input: TFailRequest, now = new Date()): Promise<TFailReply> {
  const job = await db.job.findFirst({
    where: { id: jobId, projectId: holder.projectId },
    select: {
      attempts: true,
      maxAttempts: true,
      cancelRequested: true,
      batchId: true,
      experimentId: true,
      groupId: true,
      shard: true,
      shards: true,
      agent: { select: { name: true } },
    },
  });
  if (!job) throw new AppError("NOT_FOUND", `No job "${jobId}" in this agent's project`);
  const status = input.cancelled || job.cancelRequested ? "cancelled" : input.retryable && job.attempts < job.maxAttempts ? "queued" : "failed";
  const runAfter = new Date(now.getTime() + backoffSeconds(job.attempts) * 1000);
  // One transaction: a shard's failure moves its whole group (./group-failure.ts).
  const { count } = await db.$transaction(async (tx) => {
    const ended = await tx.job.updateMany({
      where: { id: jobId, projectId: holder.projectId, agentId: holder.agentId, leaseToken: holder.leaseToken, status: "leased" },
      data: {
        status,
        error: input.error,
        logTail: input.logTail || null,
        leaseExpiresAt: null,
        ...(status === "queued" ? { runAfter, finishedAt: null } : { finishedAt: now }),
      },
    });
    if (ended.count === 1 && job.groupId)
      await followFailedShard(
        tx,
        { id: jobId, groupId: job.groupId, shard: job.shard ?? 0, shards: job.shards, agentName: job.agent?.name ?? "?" },
        { status, error: input.error, runAfter },
        now,
      );
    return ended;
  });
  if (count === 1) {
    if (status === "queued") return { status, retryAt: runAfter.toISOString() };
    await settleConfirmationOf(db, job);
    return { status };
  }
  return repeatedEnd(await jobOfProject(db, holder.projectId, jobId), holder);
}

/**
 * Gives a job back without counting the attempt (the agent is shutting down): queued again at
 * once and announced, or cancelled if a user cancelled it meanwhile.
 */
export async function releaseJob(db: Db, holder: LeaseHolder, jobId: string): Promise<TReleaseReply> {
  const rows = await db.$queryRaw<{ status: "queued" | "cancelled" }[]>`
    UPDATE "Job" SET
      "status" = (CASE WHEN "cancelRequested" THEN 'cancelled' ELSE 'queued' END)::"JobStatus",
      "attempts" = GREATEST("attempts" - 1, 0), "leaseExpiresAt" = NULL, "runAfter" = ${utcNow},
      "finishedAt" = CASE WHEN "cancelRequested" THEN ${utcNow} ELSE NULL END, "updatedAt" = ${utcNow}
    WHERE "id" = ${jobId} AND "projectId" = ${holder.projectId} AND "agentId" = ${holder.agentId}
      AND "leaseToken" = ${holder.leaseToken} AND "status" = 'leased'
    RETURNING "status"::text AS "status"`;
  const row = rows[0];
  if (row) {
    if (row.status === "queued") await notifyWork(db, holder.projectId);
    return { status: row.status };
  }
  const job = await jobOfProject(db, holder.projectId, jobId);
  if (holdsLastLease(job, holder) && (job.status === "queued" || job.status === "cancelled")) return { status: job.status };
  throw leaseLost(job, holder);
}

/**
 * A fail repeated after the first one ended the lease: the job still carries this agent's token
 * and is no longer leased, so answer with where it stands. Anything else is 409.
 */
function repeatedEnd(job: JobState, holder: LeaseHolder): TFailReply {
  if (holdsLastLease(job, holder) && (job.status === "queued" || job.status === "failed" || job.status === "cancelled")) {
    return job.status === "queued" ? { status: job.status, retryAt: job.runAfter.toISOString() } : { status: job.status };
  }
  throw leaseLost(job, holder);
}
