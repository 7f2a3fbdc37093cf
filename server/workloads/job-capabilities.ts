// What a job of a variant needs from the agent that claims it: its workload's name,
// `probe:<kind>` for each kind of probe it samples, `targets` when its settings list bundled
// targets for the agent to start, and `kafka:local-broker` when a kafka job asks for a broker of
// its own (docs/agent-protocol.md, "Capabilities": another agent's workload of the same name may
// not take that setting). The queue matches jobs to agents with it,
// and the Run dialog says which of these no agent offers.
import { probeCapability } from "../schemas/probe";
import { splitsOverAgents, type TVariantWorkload } from "../schemas/workload";

/** The capability of an agent whose workloads start the bundled targets a job's settings list (the Go agent's http, grpc and s3). */
export const TARGETS_CAPABILITY = "targets";

/** The capability of an agent that runs job groups' shards: it reports ready and starts at the group's start time (docs/agent-protocol.md, "Job groups"). */
export const SHARDS_CAPABILITY = "shards";

/** The capability of an agent whose kafka workload starts a broker for each run (the JVM agent given the local broker's jar). */
export const KAFKA_LOCAL_BROKER_CAPABILITY = "kafka:local-broker";

export function jobCapabilities(workload: TVariantWorkload): string[] {
  const targets = Array.isArray(workload.settings.targets) && workload.settings.targets.length > 0 ? [TARGETS_CAPABILITY] : [];
  const broker = workload.workload === "kafka" && workload.settings.localBroker === true ? [KAFKA_LOCAL_BROKER_CAPABILITY] : [];
  // A shard of a job group needs an agent that reports ready and starts at the group's start time.
  const shards = splitsOverAgents(workload.agents) ? [SHARDS_CAPABILITY] : [];
  return [...new Set([workload.workload, ...targets, ...broker, ...shards, ...workload.probes.map((probe) => probeCapability(probe.kind))])];
}
