// What the Run dialog tells before anything is queued: how many jobs, in which order, and which
// of the project's agents could take them. The order comes from the same planBatch the server
// queues with, so the preview is the batch's order.
import { planBatch } from "~/server/agents/plan";
import { ZLabels, type TLabels } from "~/server/schemas/labels";
import type { TJobOrder } from "~/server/schemas/jobs";
import { agentCount, agentPool, type TAgentPool, type TWorkloadAgents } from "~/server/schemas/workload";
import { poolMembers, poolShortfall } from "~/server/agents/agent-pools";

export interface RunnableVariant {
  name: string;
  /** The workload it runs; null when none is configured (it cannot be run). */
  workload: string | null;
  /** What its jobs need from an agent: the workload and `probe:<kind>` per probe kind (server/workloads/job-capabilities.ts). */
  needs: string[];
  /** How many agents make each of its runs together (a job group, docs/agents.md): a number (1 for one agent), or a pool counted at Run. */
  agents: TWorkloadAgents;
}

export interface JobCount {
  warmup: number;
  measured: number;
  total: number;
}

export function jobCount(variants: number, warmupRuns: number, measuredRuns: number): JobCount {
  return { warmup: variants * warmupRuns, measured: variants * measuredRuns, total: variants * (warmupRuns + measuredRuns) };
}

/** The batch's first `limit` jobs as "warm-up Plain", "Gzip"…; null for a random order without a seed yet. */
export function orderPreview(
  variants: string[],
  warmupRuns: number,
  measuredRuns: number,
  order: TJobOrder,
  seed: number | undefined,
  limit = 8,
): string[] | null {
  if (order === "random" && seed === undefined) return null;
  // An interleaved batch starts the same however many rounds follow, so a few are enough; a
  // random order shuffles the whole batch, so it is planned whole.
  const measured = order === "interleaved" ? Math.min(measuredRuns, Math.ceil(limit / Math.max(1, variants.length)) + 1) : measuredRuns;
  return planBatch({ variants, warmupRuns, measuredRuns: measured, order, seed: seed ?? 0 })
    .slice(0, limit)
    .map((job) => (job.warmup ? `warm-up ${job.variant}` : job.variant));
}

/** "pool=lab, os=linux" as labels, or what is wrong with the text. */
export function parseLabels(text: string): { labels: TLabels } | { error: string } {
  const labels: Record<string, string> = {};
  for (const item of text
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean)) {
    const at = item.indexOf("=");
    if (at <= 0) return { error: `“${item}” is not key=value: write labels as pool=lab, os=linux` };
    const key = item.slice(0, at).trim();
    if (key in labels) return { error: `label “${key}” is given twice` };
    labels[key] = item.slice(at + 1).trim();
  }
  const parsed = ZLabels.safeParse(labels);
  if (parsed.success) return { labels: parsed.data };
  const issue = parsed.error.issues[0];
  // A bad key is reported as "Invalid key in record" with the key's own problem inside.
  return { error: (issue?.code === "invalid_key" ? issue.issues[0]?.message : issue?.message) ?? "labels are not valid" };
}

export interface AgentForRun {
  id: string;
  name: string;
  online: boolean;
  revokedAt: Date | null;
  capabilities: string[];
  labels: TLabels;
  stopRequested?: boolean;
}

export interface VariantAgents {
  /** How many agents would make each run if Run were pressed now. */
  count: number;
  pool: TAgentPool | null;
  /** A pool's agents that could take a shard now (the server counts the same ones at start). */
  members: AgentForRun[];
  /** Why Run would be refused: the pool has fewer than its minimum online; null otherwise. */
  short: string | null;
}

/** How many agents each run of the variant takes: its number, or its pool counted as the batch start will count it. */
export function variantAgents(variant: RunnableVariant, agents: AgentForRun[], labels: TLabels): VariantAgents {
  const pool = agentPool(variant.agents);
  if (!pool) return { count: agentCount(variant.agents, 0), pool: null, members: [], short: null };
  const members = poolMembers(agents, variant.needs, pool, labels);
  return { count: agentCount(variant.agents, members.length), pool, members, short: poolShortfall(variant.workload ?? "", pool, members) };
}

/**
 * The unrevoked agents that could take every job of the batch: they offer each capability the
 * jobs need (workloads, probe kinds), carry every required label, and are the pinned agent when
 * one is chosen.
 */
export function agentsThatCanRun<A extends AgentForRun>(agents: A[], needs: string[], labels: TLabels, pinnedAgentId?: string): A[] {
  return agents.filter(
    (agent) =>
      !agent.revokedAt &&
      (!pinnedAgentId || agent.id === pinnedAgentId) &&
      needs.every((need) => agent.capabilities.includes(need)) &&
      Object.entries(labels).every(([key, value]) => agent.labels[key] === value),
  );
}

/**
 * What the jobs need that no agent of the project offers, online or not: what to install or start
 * first (an offline agent that offers it only needs to come back, which the dialog says apart).
 */
export function unofferedNeeds(agents: AgentForRun[], needs: string[]): string[] {
  const active = agents.filter((agent) => !agent.revokedAt);
  return needs.filter((need) => !active.some((agent) => agent.capabilities.includes(need)));
}

export interface JobSeconds {
  variant: string;
  seconds: number | null;
  basis: "earlier jobs" | "settings" | null;
  jobs: number;
}

/** "about 40 s", "about 3 min", "about 2.5 h". */
export function aboutDuration(seconds: number): string {
  if (seconds < 55) return `about ${Math.max(5, Math.round(seconds / 5) * 5)} s`;
  const minutes = Math.max(1, Math.round(seconds / 60));
  if (minutes < 120) return `about ${minutes} min`;
  return `about ${(seconds / 3600).toFixed(1).replace(/\.0$/, "")} h`;
}

/**
 * How long the batch takes: each chosen variant's jobs × the time one of its jobs takes, shared
 * by the agents that can take them (at least one). Unknown when any chosen variant's time is.
 */
export function batchDuration(estimates: JobSeconds[], variants: string[], jobsPerVariant: number, agents: number): { text: string; basis: string } {
  const chosen = variants.map((name) => estimates.find((estimate) => estimate.variant === name));
  if (chosen.length === 0) return { text: "unknown", basis: "" };
  if (chosen.some((estimate) => !estimate || estimate.seconds === null)) {
    return { text: "unknown", basis: "no earlier jobs of these settings, and the workload's settings do not say how long a run lasts" };
  }
  const known = chosen as (JobSeconds & { seconds: number })[];
  const total = known.reduce((sum, estimate) => sum + estimate.seconds * jobsPerVariant, 0) / Math.max(1, agents);
  const fromJobs = known.filter((estimate) => estimate.basis === "earlier jobs");
  const basis =
    fromJobs.length === known.length
      ? `the median time of ${Math.min(...known.map((estimate) => estimate.jobs))} or more earlier jobs per variant`
      : fromJobs.length
        ? "earlier jobs, and the workload's duration settings where there are none"
        : "the workloads' duration settings; start-up not included";
  return { text: aboutDuration(total), basis: `${basis}, ${agents <= 1 ? "one agent at a time" : `shared by ${agents} agents`}` };
}
