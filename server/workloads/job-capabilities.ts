// What a job of a variant needs from the agent that claims it: its workload's name, and
// `probe:<kind>` for each kind of probe it samples (docs/agent-protocol.md, "Capabilities"). The
// queue matches jobs to agents with it, and the Run dialog says which of these no agent offers.
import { probeCapability } from "../schemas/probe";
import type { TVariantWorkload } from "../schemas/workload";

export function jobCapabilities(workload: TVariantWorkload): string[] {
  return [...new Set([workload.workload, ...workload.probes.map((probe) => probeCapability(probe.kind))])];
}
