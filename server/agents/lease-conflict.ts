// Why a lease presented with a call about a job (lease, complete, fail, release) is not the job's
// current one, said as the case it is: a 409 whose message and `details.reason`
// (leaseConflictReasons in ../schemas/jobs.ts) tell an agent's author what happened. A lease
// token names the job it was issued for — `vlease_<job id>.<random>`, made by the claim statement
// — so a token the job never had is told apart from one of its earlier leases without keeping
// every token a job ever had.
import { Prisma } from "../db/generated/client";
import { AppError } from "../core/errors";
import type { TLeaseConflictReason } from "../schemas/jobs";

/** A job as a conflict is explained from. */
export interface JobLeaseState {
  id: string;
  status: string;
  agentId: string | null;
  leaseToken: string | null;
  attempts: number;
  maxAttempts: number;
  /** The name of the agent the job is (or was last) leased to. */
  agentName: string | null;
}

export interface PresentedLease {
  agentId: string;
  leaseToken: string;
}

const TOKEN_PREFIX = "vlease_";

/** The SQL of a new lease token for the job whose id `jobId` is, with `secret` as its random part. */
export function leaseTokenSql(jobId: Prisma.Sql, secret: string): Prisma.Sql {
  return Prisma.sql`${TOKEN_PREFIX} || ${jobId} || '.' || ${secret}`;
}

/** The job a lease token was issued for, or undefined for anything that is not a lease token. */
export function jobOfLeaseToken(token: string): string | undefined {
  return /^vlease_([^.\s]+)\.[A-Za-z0-9_-]+$/.exec(token)?.[1];
}

const STOP = "Stop working on it and drop its result.";

/** 409: the lease presented is not the job's current one, saying which case it is. */
export function leaseLost(job: JobLeaseState, presented: PresentedLease): AppError {
  const conflict = (reason: TLeaseConflictReason, message: string) => new AppError("CONFLICT", message, { reason });
  const finished = (how: string) => conflict("job_finished", `Job ${job.id} ${how}: nothing more to do with it. ${STOP}`);
  if (job.status === "succeeded" || job.status === "failed") {
    if (jobOfLeaseToken(presented.leaseToken) === job.id || job.leaseToken === presented.leaseToken) return finished(`has already ${job.status}`);
  }
  if (job.status === "cancelled" && (jobOfLeaseToken(presented.leaseToken) === job.id || job.leaseToken === presented.leaseToken))
    return finished("was cancelled");

  if (job.leaseToken === presented.leaseToken) {
    // The current lease of the job, but not the caller's: a credential and a lease that do not go together.
    if (job.agentId !== presented.agentId) {
      return conflict(
        "lease_of_another_agent",
        `This lease on job ${job.id} is agent "${job.agentName ?? "?"}"'s, not this agent's: only the agent that claimed a job may use its lease.`,
      );
    }
    // This very lease, and the job is queued again (given back, or failed with attempts left).
    return conflict("lease_ended", `This lease on job ${job.id} is no longer yours: it ended and the job is queued again. ${STOP}`);
  }
  const issuedFor = jobOfLeaseToken(presented.leaseToken);
  if (issuedFor !== job.id) {
    const what = issuedFor ? `it is the lease of job ${issuedFor}` : "it is not a lease token Versus issued for this job";
    return conflict("lease_unknown", `Job ${job.id} never had this lease: ${what}. Send the leaseToken that the claim of this job answered.`);
  }
  // An earlier lease of this job.
  if (job.status === "leased") {
    return conflict(
      "lease_taken",
      `This lease on job ${job.id} is no longer yours: it expired, and attempt ${job.attempts} of ${job.maxAttempts} holds the job now (agent "${job.agentName ?? "?"}"). ${STOP}`,
    );
  }
  return conflict("lease_ended", `This lease on job ${job.id} is no longer yours: it ended and the job is queued again. ${STOP}`);
}
