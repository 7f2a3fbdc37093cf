// The agent side of the protocol (docs/agent-protocol.md): register and heartbeat bodies and
// replies, and the dashboard's agent procedures. Shared by REST, OpenAPI and tRPC.
import { z } from "zod";
import { ZSlug } from "./common";
import { ZLabels } from "./labels";
import { ZWorkloadAdvert } from "./workload";

export const agentKinds = ["go", "jvm", "other"] as const;

export const ZAgentName = z.string({ error: "name is required" }).trim().min(1, "name is required").max(100, "name must be at most 100 characters");

/** Capability names, deduplicated: what an agent can run, or what a job needs. */
export const ZCapabilities = z
  .array(z.string().trim().min(1, "a capability cannot be blank").max(100, "a capability must be at most 100 characters"))
  .max(200, "at most 200 capabilities")
  .transform((names) => [...new Set(names)]);

const ZAgentVersion = z.string().trim().min(1, "version is required").max(50, "version must be at most 50 characters");
const ZWorkloadAdverts = z.array(ZWorkloadAdvert).max(100, "at most 100 workloads");

export const ZAgentRegister = z
  .object({
    name: ZAgentName,
    kind: z.enum(agentKinds, { error: `kind must be one of ${agentKinds.join(", ")}` }),
    version: ZAgentVersion,
    capabilities: ZCapabilities.default([]),
    labels: ZLabels.default({}),
    workloads: ZWorkloadAdverts.default([]),
    /** What the agent knows about its machine: CPU model, cores, memory, OS, runtimes. */
    environment: z.record(z.string(), z.unknown()).default({}),
  })
  .meta({ id: "AgentRegister" });
export type TAgentRegister = z.output<typeof ZAgentRegister>;

export const ZAgentRegistered = z
  .object({
    agent: z.object({ id: z.string(), name: z.string(), project: z.string().meta({ description: "the project's slug" }) }),
    credential: z.string().meta({ description: "vsag_…: shown once; send it as `Authorization: Bearer` on every other call" }),
    heartbeatIntervalSeconds: z.number().int(),
    claimWaitSeconds: z.number().int(),
    leaseSeconds: z.number().int(),
  })
  .meta({ id: "AgentRegistered" });
export type TAgentRegistered = z.input<typeof ZAgentRegistered>;

export const ZHeartbeat = z
  .object({
    version: ZAgentVersion.optional(),
    capabilities: ZCapabilities.optional(),
    labels: ZLabels.optional(),
    workloads: ZWorkloadAdverts.optional(),
    /** Jobs the agent is running now, so the reply can say which of them to stop. */
    runningJobIds: z.array(z.string().min(1).max(100)).max(100, "at most 100 running jobs").default([]),
  })
  .meta({ id: "Heartbeat" });
export type THeartbeat = z.output<typeof ZHeartbeat>;

export const ZHeartbeatReply = z
  .object({
    cancelJobIds: z.array(z.string()).meta({ description: "jobs among runningJobIds to stop: cancelled by a user, or no longer leased to this agent" }),
    stop: z.boolean().meta({ description: "finish or release the running jobs, then exit" }),
    heartbeatIntervalSeconds: z.number().int(),
  })
  .meta({ id: "HeartbeatReply" });
export type THeartbeatReply = z.input<typeof ZHeartbeatReply>;

// ---- dashboard (tRPC)

export const ZAgentRef = z.object({ projectSlug: ZSlug, agentId: z.string().min(1, "agentId is required") });
