// "Run" on an experiment: a batch of jobs for its variants × (warm-up + measured runs), queued in
// one transaction and announced to waiting agents; and what the dashboard does with batches
// afterwards: watch them, cancel a batch or a job, retry failed jobs.
import crypto from "node:crypto";
import type { Db } from "../db/client";
import { Prisma } from "../db/generated/client";
import { preparedQuery } from "../db/prepared-statements";
import { AppError, type FieldIssue, issuesSummary } from "../core/errors";
import type { TLabels } from "../schemas/labels";
import { MAX_BATCH_JOBS, type TJobOrder, type TJobStatus, type TStartBatch } from "../schemas/jobs";
import { agentPool, splitsOverAgents, workloadOf, type TVariantWorkload } from "../schemas/workload";
import { jobCapabilities } from "../workloads/job-capabilities";
import { requireWorkloadFit } from "../workloads/workload-checks";
import { isOnline } from "./agent-admin";
import { resolvePools, type TResolvedWorkload } from "./agent-pools";
import { batchWaitReasons, type WaitingAgent } from "./batch-waits";
import { settleConfirmationOf } from "./confirmation-wakeup";
import { newSeed, planBatch } from "./plan";
import { shardSettings } from "./job-groups";
import { notifyWork } from "./wakeups";

export interface StartedBatch {
  id: string;
  order: TJobOrder;
  /** The seed of a random order (given or picked); null for interleaved. */
  seed: number | null;
  jobs: number;
  /** Unrevoked agents that could run every job of the batch now (by capability, label, pin). */
  eligibleAgents: number;
}

export interface StartOptions {
  /** Started through the REST API with this key (recorded on the batch). */
  apiKeyId?: string;
  /**
   * Refuse the batch unless an online agent could take every job now (CI waits for the batch:
   * queueing it for an agent that is off would only time out). The Run dialog queues anyway and
   * the batch panel says why it waits.
   */
  requireOnlineAgent?: boolean;
}

/**
 * Queues a batch. Refused, with nothing written, when a chosen variant has no workload configured
 * (Variant.config lacks {"workload": name}), a variant name is unknown, the pinned agent is not an
 * active agent of the project or cannot run a workload, the batch would be too large, or (with
 * requireOnlineAgent) no online agent could run it.
 */
export async function startBatch(
  db: Db,
  projectId: string,
  createdById: string | null,
  input: Omit<TStartBatch, "projectSlug" | "noise"> & { noise?: boolean },
  options: StartOptions = {},
): Promise<StartedBatch> {
  const experiment = await db.experiment.findUnique({
    where: { projectId_slug: { projectId, slug: input.experimentSlug } },
    include: { variants: { orderBy: { position: "asc" } }, metrics: { orderBy: { position: "asc" }, select: { key: true } } },
  });
  if (!experiment) throw new AppError("NOT_FOUND", `No experiment "${input.experimentSlug}" in this project`);

  const issues: FieldIssue[] = [];
  const known = new Map(experiment.variants.map((variant) => [variant.name, variant]));
  input.variants?.forEach((name, index) => {
    if (!known.has(name)) issues.push({ path: ["variants", index], message: `no variant "${name}" in this experiment` });
  });
  if (issues.length) throw new AppError("BAD_REQUEST", issuesSummary(issues), { fieldIssues: issues });
  if (input.noise && input.variants) {
    throw new AppError("BAD_REQUEST", "A noise batch runs the baseline variant against itself: leave variants out", {
      fieldIssues: [{ path: ["variants"], message: "not with noise: the baseline is run against itself" }],
    });
  }
  const chosen = input.noise
    ? experiment.variants.filter((variant) => variant.isBaseline)
    : input.variants
      ? experiment.variants.filter((variant) => input.variants?.includes(variant.name))
      : experiment.variants;

  const workloads = new Map<string, TVariantWorkload>();
  const missing: string[] = [];
  for (const variant of chosen) {
    const workload = workloadOf(variant.config);
    if (workload) workloads.set(variant.id, workload);
    else missing.push(variant.name);
  }
  if (missing.length) {
    throw new AppError(
      "UNPROCESSABLE",
      `${missing.length === 1 ? "Variant" : "Variants"} ${missing.map((name) => `"${name}"`).join(", ")} ${missing.length === 1 ? "has" : "have"} no workload: edit the experiment and choose what agents run for ${missing.length === 1 ? "it" : "them"}`,
      { fieldIssues: [{ path: ["variants"], message: `no workload configured for ${missing.join(", ")}` }] },
    );
  }
  const needed = [...new Set([...workloads.values()].flatMap(jobCapabilities))];
  // The same check as saving: agents' adverts may have changed since (or the experiment was
  // saved before they said what they report).
  await requireWorkloadFit(
    db,
    projectId,
    { variants: chosen.map((variant) => ({ name: variant.name, config: workloads.get(variant.id) ?? {} })), metrics: experiment.metrics },
    "Run would queue jobs their agents cannot do",
  );

  let pinned: { id: string; capabilities: string[] } | null = null;
  if (input.agentId) {
    pinned = await db.agent.findFirst({ where: { id: input.agentId, projectId, revokedAt: null }, select: { id: true, name: true, capabilities: true } });
    if (!pinned)
      throw new AppError("NOT_FOUND", "No active agent with that id in this project", {
        fieldIssues: [{ path: ["agentId"], message: "no active agent with this id" }],
      });
    const lacking = needed.filter((name) => !pinned?.capabilities.includes(name));
    if (lacking.length) {
      throw new AppError(
        "UNPROCESSABLE",
        `The chosen agent cannot run ${lacking.map((name) => `"${name}"`).join(", ")}: it does not advertise ${lacking.length === 1 ? "that capability" : "those capabilities"}`,
        {
          fieldIssues: [{ path: ["agentId"], message: `does not run ${lacking.join(", ")}` }],
        },
      );
    }
  }

  // The project's agents as they are now, read once for what needs them: the online check and a pool's count.
  const hasPool = [...workloads.values()].some((workload) => agentPool(workload.agents));
  const agentsNow = options.requireOnlineAgent || hasPool ? await waitingAgents(db, projectId) : [];
  if (options.requireOnlineAgent) {
    const needs = [...new Map([...workloads.values()].map((workload) => jobCapabilities(workload)).map((caps) => [caps.join("\u0000"), caps])).values()];
    const reasons = batchWaitReasons({ needs, requiredLabels: input.labels, pinnedAgentId: pinned?.id ?? null }, agentsNow);
    if (reasons.length) {
      throw new AppError("UNPROCESSABLE", `No online agent can run this batch now, so nothing was started. ${reasons.join(" ")}`, {
        fieldIssues: [
          { path: [input.agentId ? "agentId" : Object.keys(input.labels).length ? "labels" : "variants"], message: "no online agent can run these jobs" },
        ],
      });
    }
  }

  if (pinned && chosen.some((variant) => splitsOverAgents(workloads.get(variant.id)?.agents))) {
    throw new AppError(
      "UNPROCESSABLE",
      "A variant whose workload runs on several agents cannot be pinned to one agent: leave the agent out or set agents to 1",
      {
        fieldIssues: [{ path: ["agentId"], message: "the workload asks for several agents" }],
      },
    );
  }
  // A pool is counted now: its groups get a shard per agent of it that could take one.
  const pools = resolvePools(chosen, workloads, agentsNow, input.labels);
  const resolved = pools.workloads;
  // Each job of a variant split over N agents is a group of N shards, each with its share of the load.
  const shares = await shardSettings(db, projectId, chosen, resolved);

  // An A/A batch: two sides of `runs` runs each, of the one variant.
  const measuredRuns = (input.runs ?? experiment.measuredRuns) * (input.noise ? 2 : 1);
  const total = chosen.reduce((sum, variant) => sum + (resolved.get(variant.id)?.agents ?? 1) * (experiment.warmupRuns + measuredRuns), 0);
  if (total > MAX_BATCH_JOBS) {
    throw new AppError(
      "UNPROCESSABLE",
      `That batch would be ${total.toLocaleString("en-US")} jobs; one batch holds at most ${MAX_BATCH_JOBS.toLocaleString("en-US")}. Lower the run counts or run fewer variants at a time.`,
    );
  }

  const seed = input.order === "random" ? (input.seed ?? newSeed()) : null;
  const plan = planBatch({ variants: chosen, warmupRuns: experiment.warmupRuns, measuredRuns, order: input.order, seed: seed ?? 0 });
  // One creation time for the whole batch: the claim query orders by it, then by position.
  const createdAt = new Date();
  const batchId = await db.$transaction(
    async (tx) => {
      const batch = await tx.jobBatch.create({
        data: {
          projectId,
          experimentId: experiment.id,
          createdById,
          order: input.order,
          seed,
          pinnedAgentId: pinned?.id,
          requiredLabels: input.labels,
          apiKeyId: options.apiKeyId,
          gitCommit: input.commit,
          gitBranch: input.branch,
          gitCommitMessage: input.commitMessage,
          gitCommitTime: input.commitTime ? new Date(input.commitTime) : undefined,
          noise: input.noise,
          createdAt,
        },
      });
      // A group's shards sit next to each other in the batch's order, so agents claim them together.
      const rows = plan.flatMap((job) => {
        const workload = resolved.get(job.variant.id) as TResolvedWorkload;
        const shards = shares.get(job.variant.id);
        const common = {
          projectId,
          experimentId: experiment.id,
          variantId: job.variant.id,
          batchId: batch.id,
          repetition: job.repetition,
          warmup: job.warmup,
          capabilities: jobCapabilities(workload),
          requiredLabels: pools.labels.get(job.variant.id) ?? input.labels,
          pinnedAgentId: pinned?.id,
          maxAttempts: input.maxAttempts,
          runAfter: createdAt,
          createdAt,
        };
        if (!shards) return [{ ...common, payload: workload as Prisma.InputJsonObject }];
        const groupId = crypto.randomUUID();
        return shards.map((settings, shard) => {
          // The probes sample the system under test once per group: the first shard's agent does.
          const share = { ...workload, settings, probes: shard === 0 ? workload.probes : [] };
          return { ...common, capabilities: jobCapabilities(share), payload: share as Prisma.InputJsonObject, groupId, shard, shards: shards.length };
        });
      });
      for (let start = 0; start < rows.length; start += 1000) {
        await tx.job.createMany({ data: rows.slice(start, start + 1000).map((row, i) => ({ ...row, position: start + i })) });
      }
      await notifyWork(tx, projectId);
      return batch.id;
    },
    { timeout: 60_000 },
  );
  return {
    id: batchId,
    order: input.order,
    seed,
    jobs: total,
    // A pool's labels too: the agents that could run every job are in every pool.
    eligibleAgents: await countEligibleAgents(db, projectId, needed, Object.assign({}, input.labels, ...pools.labels.values()), pinned?.id),
  };
}

async function countEligibleAgents(db: Db, projectId: string, capabilities: string[], labels: TLabels, pinnedAgentId: string | undefined): Promise<number> {
  const rows = await db.$queryRaw<{ count: bigint }[]>`
    SELECT count(*) AS count FROM "Agent"
    WHERE "projectId" = ${projectId} AND "revokedAt" IS NULL
      AND "capabilities" @> ${capabilities}::text[]
      AND "labels" @> ${JSON.stringify(labels)}::jsonb
      AND (${pinnedAgentId ?? null}::text IS NULL OR "id" = ${pinnedAgentId ?? null}::text)`;
  return Number(rows[0]?.count ?? 0);
}

export interface BatchJobRow {
  id: string;
  position: number;
  variant: { id: string; name: string };
  repetition: number;
  warmup: boolean;
  status: TJobStatus;
  attempts: number;
  maxAttempts: number;
  /** The agent running it (leased), or the last one that tried it. */
  agent: { id: string; name: string } | null;
  error: string | null;
  runId: string | null;
  runAfter: Date;
  leaseExpiresAt: Date | null;
  cancelRequested: boolean;
  startedAt: Date | null;
  finishedAt: Date | null;
}

export interface BatchRow {
  id: string;
  createdAt: Date;
  createdBy: { name: string; email: string } | null;
  order: TJobOrder;
  seed: number | null;
  pinnedAgent: { id: string; name: string } | null;
  requiredLabels: TLabels;
  cancelledAt: Date | null;
  /** An A/A batch measuring the agents' noise. */
  noise: boolean;
  /** Dispatched to confirm an alert rule's breach before it alarms. */
  confirmsAlert: boolean;
  counts: Record<TJobStatus, number>;
  /** While jobs are queued and no agent could take them now: why (batch-waits.ts); [] otherwise. */
  waiting: string[];
  jobs: BatchJobRow[];
  /** True when the batch has more jobs than `jobs` lists (the first ones in order are listed). */
  jobsTruncated: boolean;
}

/** Jobs listed per batch; the counts always cover all of them. */
const JOBS_PER_BATCH = 1000;

const jobRowSelect = {
  id: true,
  position: true,
  repetition: true,
  warmup: true,
  status: true,
  attempts: true,
  maxAttempts: true,
  error: true,
  runId: true,
  runAfter: true,
  leaseExpiresAt: true,
  cancelRequested: true,
  startedAt: true,
  finishedAt: true,
  variant: { select: { id: true, name: true } },
  agent: { select: { id: true, name: true } },
} satisfies Prisma.JobSelect;

/** The experiment's most recent batches, newest first, with each job's progress. */
export async function listBatches(db: Db, projectId: string, experimentSlug: string, limit = 10): Promise<BatchRow[]> {
  // The page asks on every view, and most experiments have no batch (uploads only): one prepared
  // statement answers that, where Prisma's pipeline took three statements and ~8 ms of CPU.
  const [experiment] = await preparedQuery<{ id: string; hasBatches: boolean }>(
    db,
    Prisma.sql`SELECT e."id", EXISTS (SELECT 1 FROM "JobBatch" b WHERE b."experimentId" = e."id") AS "hasBatches"
               FROM "Experiment" e WHERE e."projectId" = ${projectId} AND e."slug" = ${experimentSlug}`,
  );
  if (!experiment) throw new AppError("NOT_FOUND", `No experiment "${experimentSlug}" in this project`);
  if (!experiment.hasBatches) return [];
  const batches = await db.jobBatch.findMany({
    where: { experimentId: experiment.id },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: limit,
    include: {
      createdBy: { select: { name: true, email: true } },
      pinnedAgent: { select: { id: true, name: true } },
      jobs: { orderBy: { position: "asc" }, take: JOBS_PER_BATCH, select: jobRowSelect },
      confirms: { select: { id: true }, take: 1 },
    },
  });
  const counts = await db.job.groupBy({ by: ["batchId", "status"], where: { batchId: { in: batches.map((b) => b.id) } }, _count: { _all: true } });
  const waits = await waitReasons(db, projectId, batches);
  return batches.map(({ jobs, requiredLabels, confirms, ...batch }) => {
    const tally: Record<TJobStatus, number> = { queued: 0, leased: 0, succeeded: 0, failed: 0, cancelled: 0 };
    for (const row of counts) if (row.batchId === batch.id) tally[row.status] = row._count._all;
    const total = Object.values(tally).reduce((a, b) => a + b, 0);
    return {
      id: batch.id,
      createdAt: batch.createdAt,
      createdBy: batch.createdBy,
      order: batch.order,
      seed: batch.seed,
      pinnedAgent: batch.pinnedAgent,
      requiredLabels: requiredLabels as TLabels,
      cancelledAt: batch.cancelledAt,
      noise: batch.noise,
      confirmsAlert: confirms.length > 0,
      counts: tally,
      waiting: waits.get(batch.id) ?? [],
      jobs,
      jobsTruncated: total > jobs.length,
    };
  });
}

/** Why one batch's queued jobs wait ([] when an agent could take them now, or none are queued). */
export async function listBatchWaits(
  db: Db,
  projectId: string,
  batch: { id: string; pinnedAgentId: string | null; requiredLabels: Prisma.JsonValue },
): Promise<string[]> {
  return (await waitReasons(db, projectId, [batch])).get(batch.id) ?? [];
}

/** Why each batch with queued jobs waits, by batch id (none: an agent could take them now). */
async function waitReasons(
  db: Db,
  projectId: string,
  batches: { id: string; pinnedAgentId: string | null; requiredLabels: Prisma.JsonValue }[],
  now = new Date(),
): Promise<Map<string, string[]>> {
  const queued = await db.job.findMany({
    where: { batchId: { in: batches.map((batch) => batch.id) }, status: "queued" },
    distinct: ["batchId", "variantId"],
    select: { batchId: true, capabilities: true },
  });
  const reasons = new Map<string, string[]>();
  if (queued.length === 0) return reasons;
  const agents = await waitingAgents(db, projectId, now);
  for (const batch of batches) {
    const needs = [...new Map(queued.filter((job) => job.batchId === batch.id).map((job) => [job.capabilities.join("\u0000"), job.capabilities])).values()];
    reasons.set(batch.id, batchWaitReasons({ needs, requiredLabels: batch.requiredLabels as TLabels, pinnedAgentId: batch.pinnedAgentId }, agents));
  }
  return reasons;
}

/** The project's agents, as batchWaitReasons judges them. */
async function waitingAgents(db: Db, projectId: string, now = new Date()): Promise<WaitingAgent[]> {
  const agents = await db.agent.findMany({
    where: { projectId },
    select: { id: true, name: true, capabilities: true, labels: true, lastSeenAt: true, revokedAt: true, stopRequested: true },
  });
  return agents.map((agent) => ({ ...agent, labels: agent.labels as TLabels, online: isOnline(agent, now) }));
}

/** One job with its log tail and workload, for the job's detail view. */
export async function getJob(db: Db, projectId: string, jobId: string) {
  const job = await db.job.findFirst({
    where: { id: jobId, projectId },
    select: {
      ...jobRowSelect,
      batchId: true,
      logTail: true,
      payload: true,
      capabilities: true,
      requiredLabels: true,
      experiment: { select: { slug: true, title: true } },
    },
  });
  if (!job) throw new AppError("NOT_FOUND", "No job with that id in this project");
  return { ...job, payload: job.payload as TVariantWorkload, requiredLabels: job.requiredLabels as TLabels };
}

/**
 * Cancels one job: a queued one at once; a running one is asked to stop (its agent hears it on
 * its next lease renewal or heartbeat and acknowledges with fail + cancelled). A finished job
 * stays as it is. Answers the job's status afterwards.
 */
export async function cancelJob(
  db: Db,
  projectId: string,
  jobId: string,
  now = new Date(),
): Promise<{ id: string; status: TJobStatus; cancelRequested: boolean }> {
  return db.$transaction(async (tx) => {
    const job = await tx.job.findFirst({ where: { id: jobId, projectId }, select: { id: true } });
    if (!job) throw new AppError("NOT_FOUND", "No job with that id in this project");
    await cancelWhere(tx, { id: jobId }, now);
    const after = await tx.job.findUniqueOrThrow({ where: { id: jobId }, select: { id: true, status: true, cancelRequested: true } });
    return after;
  });
}

/** Cancels every unfinished job of a batch, as cancelJob does for one. */
export async function cancelBatch(db: Db, projectId: string, batchId: string, now = new Date()): Promise<{ id: string; cancelled: number; stopping: number }> {
  const reply = await db.$transaction(async (tx) => {
    const batch = await tx.jobBatch.findFirst({ where: { id: batchId, projectId }, select: { id: true, cancelledAt: true, experimentId: true } });
    if (!batch) throw new AppError("NOT_FOUND", "No batch with that id in this project");
    if (!batch.cancelledAt) await tx.jobBatch.update({ where: { id: batchId }, data: { cancelledAt: now } });
    const { cancelled, stopping } = await cancelWhere(tx, { batchId }, now);
    return { id: batchId, cancelled, stopping, experimentId: batch.experimentId };
  });
  await settleConfirmationOf(db, { batchId, experimentId: reply.experimentId });
  return { id: reply.id, cancelled: reply.cancelled, stopping: reply.stopping };
}

async function cancelWhere(tx: Prisma.TransactionClient, where: Prisma.JobWhereInput, now: Date) {
  const cancelled = await tx.job.updateMany({ where: { ...where, status: "queued" }, data: { status: "cancelled", finishedAt: now } });
  const stopping = await tx.job.updateMany({ where: { ...where, status: "leased", cancelRequested: false }, data: { cancelRequested: true } });
  return { cancelled: cancelled.count, stopping: stopping.count };
}

/**
 * Queues a batch's failed jobs again (or one of them) with a fresh set of attempts. Jobs that
 * did not fail are left alone.
 */
export async function retryFailed(db: Db, projectId: string, batchId: string, jobId?: string, now = new Date()): Promise<{ retried: number }> {
  return db.$transaction(async (tx) => {
    const batch = await tx.jobBatch.findFirst({ where: { id: batchId, projectId }, select: { id: true } });
    if (!batch) throw new AppError("NOT_FOUND", "No batch with that id in this project");
    if (jobId && !(await tx.job.findFirst({ where: { id: jobId, batchId }, select: { id: true } }))) {
      throw new AppError("NOT_FOUND", "No job with that id in this batch");
    }
    const { count } = await tx.job.updateMany({
      where: { batchId, status: "failed", ...(jobId ? { id: jobId } : {}) },
      data: {
        status: "queued",
        attempts: 0,
        runAfter: now,
        error: null,
        logTail: null,
        leaseToken: null,
        leaseExpiresAt: null,
        cancelRequested: false,
        startedAt: null,
        finishedAt: null,
      },
    });
    if (count) await notifyWork(tx, projectId);
    return { retried: count };
  });
}
