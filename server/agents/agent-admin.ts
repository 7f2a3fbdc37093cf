// The Agents page and the variant form: list a project's agents with whether they are online
// and what they run, revoke one (its credential is refused at once and its running jobs go back
// to the queue), ask one to stop and resume it, and the workloads the project's agents advertise.
import { SHARDS_CAPABILITY } from "../workloads/job-capabilities";
import type { Db } from "../db/client";
import { AppError } from "../core/errors";
import { ONLINE_WITHIN_MS } from "./timing";
import { notifyWork } from "./wakeups";
import type { TLabels } from "../schemas/labels";
import type { TWorkloadAdvert, TWorkloadMetric } from "../schemas/workload";
import { readAdvert } from "../workloads/workload-order";

export interface AgentRow {
  id: string;
  name: string;
  kind: "go" | "jvm" | "other";
  version: string;
  capabilities: string[];
  labels: TLabels;
  workloads: string[];
  environment: Record<string, unknown>;
  credentialPrefix: string;
  enrollmentToken: { id: string; name: string } | null;
  createdAt: Date;
  lastSeenAt: Date | null;
  revokedAt: Date | null;
  stopRequested: boolean;
  /** Seen within three heartbeat intervals, and not revoked. */
  online: boolean;
  /** What it runs now (a lease it holds), if anything. */
  currentJobs: { id: string; experiment: { slug: string; title: string }; variant: string; warmup: boolean; leaseExpiresAt: Date | null }[];
}

export async function listAgents(db: Db, projectId: string, now = new Date()): Promise<AgentRow[]> {
  const agents = await db.agent.findMany({
    where: { projectId },
    orderBy: [{ revokedAt: { sort: "desc", nulls: "first" } }, { name: "asc" }],
    include: {
      enrollmentToken: { select: { id: true, name: true } },
      jobs: {
        where: { status: "leased" },
        orderBy: { startedAt: "asc" },
        select: { id: true, warmup: true, leaseExpiresAt: true, experiment: { select: { slug: true, title: true } }, variant: { select: { name: true } } },
      },
    },
  });
  return agents.map((agent) => ({
    id: agent.id,
    name: agent.name,
    kind: agent.kind,
    version: agent.version,
    capabilities: agent.capabilities,
    labels: agent.labels as TLabels,
    workloads: (agent.workloads as TWorkloadAdvert[]).map((w) => w.name),
    environment: agent.environment as Record<string, unknown>,
    credentialPrefix: agent.credentialPrefix,
    enrollmentToken: agent.enrollmentToken,
    createdAt: agent.createdAt,
    lastSeenAt: agent.lastSeenAt,
    revokedAt: agent.revokedAt,
    stopRequested: agent.stopRequested,
    online: isOnline(agent, now),
    currentJobs: agent.jobs.map((job) => ({
      id: job.id,
      experiment: job.experiment,
      variant: job.variant.name,
      warmup: job.warmup,
      leaseExpiresAt: job.leaseExpiresAt,
    })),
  }));
}

export function isOnline(agent: { lastSeenAt: Date | null; revokedAt: Date | null }, now: Date): boolean {
  return !agent.revokedAt && agent.lastSeenAt !== null && now.getTime() - agent.lastSeenAt.getTime() < ONLINE_WITHIN_MS;
}

/**
 * Revokes an agent of this project: its next call gets 401. The jobs it holds go back to the
 * queue at once without counting an attempt (cancelled ones are cancelled), so other agents
 * take them now rather than when their leases expire. Revoking twice keeps the first date.
 */
export async function revokeAgent(
  db: Db,
  projectId: string,
  agentId: string,
  now = new Date(),
): Promise<{ id: string; revokedAt: Date; requeuedJobs: number }> {
  return db.$transaction(async (tx) => {
    const agent = await tx.agent.findFirst({ where: { id: agentId, projectId }, select: { id: true, revokedAt: true } });
    if (!agent) throw new AppError("NOT_FOUND", "No agent with that id in this project");
    if (agent.revokedAt) return { id: agent.id, revokedAt: agent.revokedAt, requeuedJobs: 0 };
    // Conditional, so a revocation racing this one keeps the first date.
    const { count } = await tx.agent.updateMany({ where: { id: agentId, revokedAt: null }, data: { revokedAt: now } });
    if (count === 0) {
      const earlier = await tx.agent.findUniqueOrThrow({ where: { id: agentId }, select: { revokedAt: true } });
      return { id: agentId, revokedAt: earlier.revokedAt as Date, requeuedJobs: 0 };
    }
    const held = { agentId, projectId, status: "leased" as const };
    await tx.job.updateMany({ where: { ...held, cancelRequested: true }, data: { status: "cancelled", leaseExpiresAt: null, finishedAt: now } });
    const requeued = await tx.job.updateMany({
      where: held,
      data: { status: "queued", attempts: { decrement: 1 }, leaseExpiresAt: null, runAfter: now },
    });
    if (requeued.count) await notifyWork(tx, projectId);
    return { id: agentId, revokedAt: now, requeuedJobs: requeued.count };
  });
}

/** Asks an agent to finish or release what it runs and exit; its next heartbeat says so. */
export async function requestAgentStop(db: Db, projectId: string, agentId: string): Promise<{ id: string }> {
  const { count } = await db.agent.updateMany({ where: { id: agentId, projectId, revokedAt: null }, data: { stopRequested: true } });
  if (count === 0) throw new AppError("NOT_FOUND", "No active agent with that id in this project");
  return { id: agentId };
}

/**
 * Takes back a stop request: the agent's next heartbeat says `stop: false` and its claims get
 * work again, with the credential it has (no new enrollment). An agent that already exited is
 * started again by whoever runs it. Resuming an agent that was not stopped changes nothing.
 */
export async function resumeAgent(db: Db, projectId: string, agentId: string): Promise<{ id: string }> {
  const { count } = await db.agent.updateMany({ where: { id: agentId, projectId, revokedAt: null }, data: { stopRequested: false } });
  if (count === 0) throw new AppError("NOT_FOUND", "No active agent with that id in this project");
  return { id: agentId };
}

export interface AdvertisedWorkload extends Omit<TWorkloadAdvert, "metrics"> {
  /**
   * The agents that advertise it, most recently seen first; `sameSettings`: its settings schema is
   * the one shown; `shards`: it can take a share of a run split over several agents; `labels`: what
   * a pool of agents is chosen by.
   */
  agents: { id: string; name: string; kind: "go" | "jvm" | "other"; online: boolean; sameSettings: boolean; shards: boolean; labels: TLabels }[];
  /**
   * Every metric an agent that advertises it reports (the union, in the first agent's order), with
   * the agents that report each: the form offers them, the server refuses any other key.
   */
  metrics: (TWorkloadMetric & { reportedBy: string[] })[];
  /** False when an agent advertises the workload without saying which metrics it reports: then nothing is refused. */
  metricsKnown: boolean;
}

/**
 * The workloads the project's (unrevoked) agents advertise, by name, for the typed settings form.
 * When agents disagree about a workload's description or settings schema, the most recently
 * seen agent's version is shown (the likeliest to run the job) and the others are marked; its
 * metrics are the union of all of theirs (server/workloads/workload-fit.ts says why).
 */
export async function advertisedWorkloads(db: Db, projectId: string, now = new Date()): Promise<AdvertisedWorkload[]> {
  const agents = await db.agent.findMany({
    where: { projectId, revokedAt: null },
    orderBy: [{ lastSeenAt: { sort: "desc", nulls: "last" } }, { name: "asc" }],
    select: { id: true, name: true, kind: true, workloads: true, capabilities: true, labels: true, lastSeenAt: true, revokedAt: true },
  });
  const byName = new Map<string, AdvertisedWorkload>();
  for (const agent of agents) {
    for (const { metrics, ...workload } of (agent.workloads as TWorkloadAdvert[]).map(readAdvert)) {
      let entry = byName.get(workload.name);
      if (!entry) byName.set(workload.name, (entry = { ...workload, agents: [], metrics: [], metricsKnown: true }));
      entry.agents.push({
        id: agent.id,
        name: agent.name,
        kind: agent.kind,
        online: isOnline(agent, now),
        sameSettings: JSON.stringify(workload.settingsSchema) === JSON.stringify(entry.settingsSchema),
        shards: agent.capabilities.includes(SHARDS_CAPABILITY),
        labels: agent.labels as TLabels,
      });
      if (!metrics) entry.metricsKnown = false;
      for (const metric of metrics ?? []) {
        const known = entry.metrics.find((candidate) => candidate.key === metric.key);
        if (known) known.reportedBy.push(agent.name);
        else entry.metrics.push({ ...metric, reportedBy: [agent.name] });
      }
    }
  }
  return [...byName.values()].sort((a, b) => a.name.localeCompare(b.name));
}
