// Why a batch's queued jobs are not being taken: no agent of the project offers a workload, none
// that does has the batch's labels, the ones that could are offline (since when) or were asked to
// stop, or the agent the batch is pinned to was revoked. The batch panel says it for as long as
// the batch waits (the panel polls while it has queued jobs), so a batch never sits at "12 queued"
// without a word once the Run dialog is closed. An online agent that could take the jobs means
// nothing is wrong: they wait their turn.
import { formatDateTime } from "../display/display";
import type { TLabels } from "../schemas/labels";

export interface WaitingAgent {
  id: string;
  name: string;
  capabilities: string[];
  labels: TLabels;
  lastSeenAt: Date | null;
  revokedAt: Date | null;
  stopRequested: boolean;
  online: boolean;
}

export interface WaitingBatch {
  /** The capabilities of its queued jobs (each job needs all of its own: its workload at least). */
  needs: string[][];
  requiredLabels: TLabels;
  pinnedAgentId: string | null;
}

const quoted = (names: string[]) => names.map((name) => `“${name}”`).join(", ");
/** "pool=lab, os=linux". */
export const labelText = (labels: TLabels) =>
  Object.entries(labels)
    .map(([key, value]) => `${key}=${value}`)
    .join(", ");

function seen(agent: WaitingAgent): string {
  return agent.lastSeenAt ? `offline since ${formatDateTime(agent.lastSeenAt)}` : "never seen";
}

/** Why no agent of `agents` takes the batch's queued jobs now; [] when one could. */
export function batchWaitReasons(batch: WaitingBatch, agents: WaitingAgent[]): string[] {
  if (batch.needs.length === 0) return [];
  const labels = Object.entries(batch.requiredLabels);
  const hasLabels = (agent: WaitingAgent) => labels.every(([key, value]) => agent.labels[key] === value);
  const offers = (agent: WaitingAgent, needs: string[]) => needs.every((name) => agent.capabilities.includes(name));

  if (batch.pinnedAgentId) {
    const pinned = agents.find((agent) => agent.id === batch.pinnedAgentId);
    if (!pinned) return ["It is pinned to an agent that no longer exists: cancel it and run again on other agents."];
    if (pinned.revokedAt)
      return [
        `It is pinned to ${pinned.name}, which was revoked on ${formatDateTime(pinned.revokedAt)}: no other agent takes its jobs. Cancel it and run again.`,
      ];
    const reasons: string[] = [];
    const lacking = [...new Set(batch.needs.flat())].filter((name) => !pinned.capabilities.includes(name));
    if (lacking.length) reasons.push(`It is pinned to ${pinned.name}, which does not offer ${quoted(lacking)}.`);
    if (!hasLabels(pinned)) reasons.push(`It is pinned to ${pinned.name}, which lacks the labels ${labelText(batch.requiredLabels)}.`);
    if (pinned.stopRequested) reasons.push(`It is pinned to ${pinned.name}, which was asked to stop: it takes no work until it enrolls again.`);
    else if (!pinned.online) reasons.push(`It is pinned to ${pinned.name}, ${seen(pinned)}: its jobs wait until it is back.`);
    return reasons;
  }

  const active = agents.filter((agent) => !agent.revokedAt);
  const reasons: string[] = [];
  for (const needs of batch.needs) {
    const offering = active.filter((agent) => offers(agent, needs));
    if (offering.length === 0) {
      const revoked = agents.filter((agent) => agent.revokedAt && offers(agent, needs)).map((agent) => agent.name);
      reasons.push(
        `No agent of this project offers ${quoted(needs)}${revoked.length ? ` (${revoked.join(", ")}, which did, ${revoked.length === 1 ? "was" : "were"} revoked)` : ""}: enroll one that does.`,
      );
      continue;
    }
    const labelled = offering.filter(hasLabels);
    if (labelled.length === 0) {
      reasons.push(
        `No agent offering ${quoted(needs)} has the labels ${labelText(batch.requiredLabels)} (${offering.map((agent) => `${agent.name}: ${labelText(agent.labels) || "no labels"}`).join("; ")}).`,
      );
      continue;
    }
    if (labelled.some((agent) => agent.online && !agent.stopRequested)) continue;
    const why = labelled.map((agent) => `${agent.name} (${agent.stopRequested ? "asked to stop" : seen(agent)})`);
    reasons.push(`The agents that could run ${quoted(needs)} are not available: ${why.join(", ")}. Its jobs wait until one is online.`);
  }
  return reasons;
}
