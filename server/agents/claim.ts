// Claiming a job: ONE SQL statement picks the first job this agent may run, in batch order, and
// leases it — FOR UPDATE SKIP LOCKED, so concurrent claimers (in any number of processes) never
// take the same job and never wait for each other. A job is offered when it is queued and its
// backoff is over, or when it is leased but its lease expired (a crashed agent's job; taking it
// counts an attempt). The same statement settles expired leases that may not be re-offered:
// those of cancelled jobs, and those on their last attempt (failed, with the reason). A job
// group's shard is never offered alone: the waiting claim settles its group (./lost-shards.ts).
//
// claimJobWaiting wraps it in the long-poll: look, and if nothing is there, wait until work of
// the project is announced (LISTEN/NOTIFY, server/agents/wakeups.ts), RECHECK_MS passes, the wait
// is over, or the agent hangs up.
import crypto from "node:crypto";
import { type Db } from "../db/client";
import { preparedQuery } from "../db/prepared-statements";
import { Prisma } from "../db/generated/client";
import type { TClaimedJob } from "../schemas/jobs";
import { queryAsAgent, type AgentCredential, type AgentPrincipal } from "./agents";
import type { TVariantWorkload } from "../schemas/workload";
import { leaseTokenSql } from "./lease-conflict";
import { LEASE_SECONDS, RECHECK_MS } from "./timing";
import { jobWakeups, type JobWakeups } from "./wakeups";
import { settleLostShards } from "./lost-shards";
import { utcNow } from "../db/utc-now";

export interface Claimant {
  agentId: string;
  projectId: string;
}

interface ClaimedRow {
  id: string;
  leaseToken: string;
  leaseExpiresAt: Date;
  attempts: number;
  maxAttempts: number;
  batchId: string;
  repetition: number;
  warmup: boolean;
  payload: TVariantWorkload;
  experimentSlug: string;
  experimentTitle: string;
  variantName: string;
  metrics: TClaimedJob["metrics"];
  groupId: string | null;
  shard: number | null;
  shards: number;
}

/**
 * The random part of a new lease token. The claim statement makes the token of it and the job it
 * leases (leaseTokenSql), so a token says which job it was issued for (lease-conflict.ts).
 */
function newLeaseSecret(): string {
  return crypto.randomBytes(24).toString("base64url");
}

/**
 * Leases the next job this agent may run, or answers null. The agent's capabilities and labels
 * are read in the same statement, so a heartbeat that changed them counts at once, and a
 * revoked or stopping agent gets nothing.
 */
export async function claimJob(db: Db, claimant: Claimant, leaseSeconds = LEASE_SECONDS): Promise<TClaimedJob | null> {
  const leaseSecret = newLeaseSecret();
  const rows = await preparedQuery<ClaimedRow>(
    db,
    Prisma.sql`
    WITH ${claimSql({ agentId: Prisma.sql`${claimant.agentId}`, projectId: Prisma.sql`${claimant.projectId}` }, leaseSecret, leaseSeconds)}
    SELECT * FROM claimed`,
  );
  return rows[0] ? claimedJob(rows[0], leaseSeconds) : null;
}

/**
 * The claim of an agent call as one statement with its authentication: the caller, admitted
 * (queryAsAgent: 401 saying what is wrong with a credential) and, when the caller may claim, the
 * job it leased, if any. The busiest call of the protocol in one round trip.
 */
export async function claimJobAs(
  db: Db,
  credential: AgentCredential,
  leaseSeconds = LEASE_SECONDS,
): Promise<{ principal: AgentPrincipal; job: TClaimedJob | null }> {
  const leaseSecret = newLeaseSecret();
  // A revoked or stopping caller's project is NULL: the statement then touches nothing.
  const { principal, row } = await queryAsAgent<{ [K in keyof ClaimedRow as `job_${K}`]: ClaimedRow[K] | null }>(
    db,
    credential,
    Prisma.sql`,
    ${claimSql({ agentId: Prisma.sql`(SELECT "id" FROM caller)`, projectId: Prisma.sql`(SELECT "projectId" FROM caller WHERE "revokedAt" IS NULL AND NOT "stopRequested")` }, leaseSecret, leaseSeconds)}
    SELECT caller.*, ${Prisma.join(CLAIMED_COLUMNS.map((column) => Prisma.sql`claimed.${Prisma.raw(`"${column}" AS "job_${column}"`)}`))}
    FROM caller LEFT JOIN claimed ON true`,
  );
  const claimed = Object.fromEntries(CLAIMED_COLUMNS.map((column) => [column, row[`job_${column}`]])) as unknown as ClaimedRow;
  return { principal, job: claimed.id ? claimedJob(claimed, leaseSeconds) : null };
}

const CLAIMED_COLUMNS = [
  "id",
  "leaseToken",
  "leaseExpiresAt",
  "attempts",
  "maxAttempts",
  "batchId",
  "repetition",
  "warmup",
  "payload",
  "experimentSlug",
  "experimentTitle",
  "variantName",
  "metrics",
  "groupId",
  "shard",
  "shards",
] as const satisfies readonly (keyof ClaimedRow)[];

/**
 * The claim's common table expressions, the last one `claimed` (the leased job's row, or none),
 * for the agent and project the two SQL expressions give.
 */
function claimSql(caller: { agentId: Prisma.Sql; projectId: Prisma.Sql }, leaseSecret: string, leaseSeconds: number): Prisma.Sql {
  // One sub-select, not three comparisons: the planner cannot estimate containment against the
  // agent's arrays and guessed that almost no job matches, so it sorted every queued job instead
  // of walking the index in order; a sub-select it counts as matching half the rows.
  // A shard of a job group goes to an agent holding no other shard of the group (each agent
  // runs its own share of the load).
  const mayRun = Prisma.sql`(SELECT j."capabilities" <@ a."capabilities" AND j."requiredLabels" <@ a."labels"
          AND (j."pinnedAgentId" IS NULL OR j."pinnedAgentId" = a."id")
          AND (j."groupId" IS NULL OR NOT EXISTS (SELECT 1 FROM "Job" o WHERE o."groupId" = j."groupId" AND o."id" <> j."id"
            AND o."agentId" = a."id" AND o."status" IN ('leased', 'succeeded'))) FROM agent a)`;
  return Prisma.sql`
    agent AS (
      SELECT "id", "capabilities", "labels" FROM "Agent"
      WHERE "id" = ${caller.agentId} AND "projectId" = ${caller.projectId} AND "revokedAt" IS NULL AND NOT "stopRequested"
    ),
    settled AS (
      UPDATE "Job" SET
        "status" = (CASE WHEN "cancelRequested" THEN 'cancelled' ELSE 'failed' END)::"JobStatus",
        "error" = CASE WHEN "cancelRequested" THEN "error"
          ELSE 'the lease expired on attempt ' || "attempts" || ' of ' || "maxAttempts" || ': the agent stopped renewing it (it crashed, hung or lost the network)' END,
        "finishedAt" = ${utcNow}, "updatedAt" = ${utcNow}
      WHERE "projectId" = ${caller.projectId} AND "status" = 'leased' AND "leaseExpiresAt" < ${utcNow}
        AND ("attempts" >= "maxAttempts" OR "cancelRequested") AND "groupId" IS NULL
      RETURNING "id"
    ),
    -- What this agent may run: its capabilities and labels cover the job's, and the job is not
    -- pinned to another agent. (No agent row, i.e. revoked or stopping: NULLs, so nothing.)
    -- Two picks, each an ordered walk of a small partial index that stops at the first row it
    -- can lock: the next queued job (Job_claimable), and the next job whose lease expired
    -- (Job_leased). The earlier of the two in batch order is leased. One pick over both states
    -- would sort every claimable job of the project on each claim.
    queued AS (
      SELECT j."id", j."createdAt", j."batchId", j."position" FROM "Job" j
      WHERE j."projectId" = ${caller.projectId} AND j."status" = 'queued' AND j."runAfter" <= ${utcNow}
        AND ${mayRun}
      ORDER BY j."createdAt", j."batchId", j."position"
      LIMIT 1
      FOR UPDATE OF j SKIP LOCKED
    ),
    expired AS (
      SELECT j."id", j."createdAt", j."batchId", j."position" FROM "Job" j
      WHERE j."projectId" = ${caller.projectId} AND j."status" = 'leased' AND j."leaseExpiresAt" < ${utcNow}
        AND j."attempts" < j."maxAttempts" AND NOT j."cancelRequested" AND j."groupId" IS NULL
        AND ${mayRun}
      ORDER BY j."createdAt", j."batchId", j."position"
      LIMIT 1
      FOR UPDATE OF j SKIP LOCKED
    ),
    candidate AS (
      SELECT "id" FROM (SELECT * FROM queued UNION ALL SELECT * FROM expired) AS picks
      ORDER BY "createdAt", "batchId", "position"
      LIMIT 1
    ),
    claimed AS (
      UPDATE "Job" j SET
        "status" = 'leased', "agentId" = ${caller.agentId}, "leaseToken" = ${leaseTokenSql(Prisma.sql`j."id"`, leaseSecret)},
        "leaseExpiresAt" = ${utcNow} + make_interval(secs => ${leaseSeconds}::float8),
        "attempts" = j."attempts" + 1, "cancelRequested" = false,
        "startedAt" = ${utcNow}, "finishedAt" = NULL, "updatedAt" = ${utcNow}, "readyAt" = NULL
      FROM candidate c, "Experiment" e, "Variant" v
      WHERE j."id" = c."id" AND e."id" = j."experimentId" AND v."id" = j."variantId"
      RETURNING j."id", j."leaseToken", j."leaseExpiresAt", j."attempts", j."maxAttempts", j."batchId", j."repetition", j."warmup", j."payload",
        j."groupId", j."shard", j."shards",
        e."slug" AS "experimentSlug", e."title" AS "experimentTitle", v."name" AS "variantName",
        (SELECT coalesce(json_agg(json_build_object('key', m."key", 'unit', m."unit", 'direction', m."direction", 'aggregation', m."aggregation") ORDER BY m."position"), '[]')
           FROM "Metric" m WHERE m."experimentId" = j."experimentId") AS "metrics"
    )`;
}

function claimedJob(row: ClaimedRow, leaseSeconds: number): TClaimedJob {
  return {
    id: row.id,
    leaseToken: row.leaseToken,
    leaseExpiresAt: row.leaseExpiresAt.toISOString(),
    leaseSeconds,
    attempt: row.attempts,
    maxAttempts: row.maxAttempts,
    batchId: row.batchId,
    experiment: { slug: row.experimentSlug, title: row.experimentTitle },
    variant: { name: row.variantName },
    repetition: row.repetition,
    warmup: row.warmup,
    workload: { name: row.payload.workload, settings: row.payload.settings ?? {} },
    // Jobs queued before probes existed have none in their payload.
    probes: row.payload.probes ?? [],
    metrics: row.metrics,
    ...(row.groupId !== null ? { group: { id: row.groupId, shard: row.shard ?? 0, shards: row.shards } } : {}),
  };
}

export interface ClaimWaitOptions {
  /** Longest wait for work, in seconds (0: look once). */
  waitSeconds: number;
  /** The HTTP request's signal: a claim whose agent hung up stops waiting. */
  signal?: AbortSignal;
  wakeups?: JobWakeups;
  /** Called with a job leased just as the agent hung up, to hand it back (it never saw it). */
  onAbandoned?: (job: TClaimedJob) => Promise<void>;
}

/** The long-poll claim: a job as soon as one may run (within the wait), or null. */
export async function claimJobWaiting(db: Db, claimant: Claimant, options: ClaimWaitOptions): Promise<TClaimedJob | null> {
  const wakeups = options.wakeups ?? jobWakeups();
  const deadline = Date.now() + options.waitSeconds * 1000;
  if (options.waitSeconds > 0) await wakeups.ready();
  for (;;) {
    const subscription = options.waitSeconds > 0 ? wakeups.subscribe(claimant.projectId) : undefined;
    try {
      await settleLostShards(db, claimant.projectId);
      const job = await claimJob(db, claimant);
      if (job) {
        if (options.signal?.aborted && options.onAbandoned) {
          await options.onAbandoned(job);
          return null;
        }
        return job;
      }
      const remaining = deadline - Date.now();
      if (!subscription || remaining <= 0) return null;
      if ((await subscription.wait(Math.min(remaining, RECHECK_MS), options.signal)) === "aborted") return null;
    } finally {
      subscription?.cancel();
    }
  }
}
