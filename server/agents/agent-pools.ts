// Agent pools at batch start: a variant whose workload asks for "every online agent labelled
// pool=lab, at least N" (server/schemas/workload.ts, ZAgentPool) is counted here, once, when Run
// is pressed: its groups get one shard per agent of the pool that could take one now, and its
// shards require the pool's labels so that only those agents claim them. The Run dialog counts
// with the same poolMembers, so what it says is what the start finds.
import { AppError } from "../core/errors";
import type { TLabels } from "../schemas/labels";
import { agentCount, agentPool, type TAgentPool, type TVariantWorkload } from "../schemas/workload";
import { jobCapabilities } from "../workloads/job-capabilities";
import { labelText } from "./batch-waits";

export interface PoolCandidate {
  name: string;
  capabilities: string[];
  labels: TLabels;
  online: boolean;
  revokedAt: Date | null;
  /** Asked to stop on the Agents page: it takes no work. */
  stopRequested?: boolean;
}

/** A workload whose agents are a number: a pool's, counted at batch start. */
export type TResolvedWorkload = Omit<TVariantWorkload, "agents"> & { agents?: number };

/** Whether the agent carries every one of these labels (the same value for each key). */
export const hasLabels = (agent: { labels: TLabels }, labels: TLabels) => Object.entries(labels).every(([key, value]) => agent.labels[key] === value);

/**
 * The agents that could take a shard of a pool's jobs now: unrevoked, online, not asked to stop,
 * offering every capability the jobs need (jobCapabilities), with the pool's labels and the batch's.
 */
export function poolMembers<A extends PoolCandidate>(agents: A[], needs: string[], pool: TAgentPool, batchLabels: TLabels): A[] {
  return agents.filter(
    (agent) =>
      !agent.revokedAt &&
      agent.online &&
      !agent.stopRequested &&
      needs.every((need) => agent.capabilities.includes(need)) &&
      hasLabels(agent, pool.labels) &&
      hasLabels(agent, batchLabels),
  );
}

/** The pool as a user reads it: "every online agent labelled pool=lab that runs “http”, at least 2". */
export function poolText(workload: string, pool: TAgentPool): string {
  return `every online agent labelled ${labelText(pool.labels)} that runs “${workload}”, at least ${pool.min}`;
}

/** Why a pool is too small to start (its labels, how many could take a shard now and who, its minimum); null when it is not. */
export function poolShortfall(workload: string, pool: TAgentPool, members: { name: string }[]): string | null {
  if (members.length >= pool.min) return null;
  const who = members.length ? ` (${members.map((agent) => agent.name).join(", ")})` : "";
  return `${poolText(workload, pool)}: ${members.length === 0 ? "none is" : members.length === 1 ? "1 is" : `${members.length} are`} online now${who}`;
}

export interface ResolvedPools {
  /** Every variant's workload, a pool's agents replaced by its count (at most MAX_GROUP_AGENTS). */
  workloads: Map<string, TResolvedWorkload>;
  /** The labels each variant's jobs require: the batch's, and its pool's. */
  labels: Map<string, TLabels>;
}

/**
 * Counts each pool among `agents`. Refused, before anything is written, when a pool has fewer
 * agents that could take a shard now than its minimum.
 */
export function resolvePools(
  variants: readonly { id: string; name: string }[],
  workloads: ReadonlyMap<string, TVariantWorkload>,
  agents: PoolCandidate[],
  batchLabels: TLabels,
): ResolvedPools {
  const resolved: ResolvedPools = { workloads: new Map(), labels: new Map() };
  const short: { name: string; why: string }[] = [];
  for (const variant of variants) {
    const workload = workloads.get(variant.id);
    if (!workload) continue;
    const pool = agentPool(workload.agents);
    const members = pool ? poolMembers(agents, jobCapabilities(workload), pool, batchLabels) : [];
    const why = pool ? poolShortfall(workload.workload, pool, members) : null;
    if (why) short.push({ name: variant.name, why });
    resolved.workloads.set(variant.id, { ...workload, agents: agentCount(workload.agents, members.length) });
    resolved.labels.set(variant.id, pool ? { ...batchLabels, ...pool.labels } : batchLabels);
  }
  if (short.length) {
    throw new AppError(
      "UNPROCESSABLE",
      `${short.map((entry) => `Variant "${entry.name}" runs on ${entry.why}`).join(". ")}. Nothing was started: start more agents with ${short.length === 1 ? "these labels" : "those labels"}, or lower the minimum.`,
      {
        fieldIssues: short.map((entry) => ({
          path: ["variants", entry.name, "agents"],
          message: `fewer online agents in its pool than its minimum: ${entry.why}`,
        })),
      },
    );
  }
  return resolved;
}
