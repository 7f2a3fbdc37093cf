// The shapes of the agent protocol (docs/agent-protocol.md) as this agent sends and reads them.
// Responses are parsed with Zod: fields this agent does not know are ignored, so a newer server
// can add some; a missing field the agent needs is a clear error instead of an undefined later.
import { z } from "zod";

export type Labels = Record<string, string>;

export interface WorkloadAdvert {
  name: string;
  description: string;
  /** JSON Schema of the workload's settings (the dashboard draws a form from it). */
  settingsSchema: Record<string, unknown>;
  /** Every metric a run of the workload can report (the dashboard offers them; the server checks experiments against them). */
  metrics: { key: string; unit: string; direction: "lower_is_better" | "higher_is_better"; aggregation: string; description: string }[];
}

export interface RegisterRequest {
  name: string;
  kind: "go" | "jvm" | "other";
  version: string;
  capabilities: string[];
  labels: Labels;
  workloads: WorkloadAdvert[];
  environment: Record<string, unknown>;
}

export const ZRegisterResponse = z.object({
  agent: z.object({ id: z.string(), name: z.string(), project: z.string() }),
  credential: z.string().min(1),
  heartbeatIntervalSeconds: z.number().positive().default(10),
  claimWaitSeconds: z.number().min(0).default(30),
  leaseSeconds: z.number().positive().default(60),
});
export type RegisterResponse = z.output<typeof ZRegisterResponse>;

export interface HeartbeatRequest {
  version?: string;
  capabilities?: string[];
  labels?: Labels;
  workloads?: WorkloadAdvert[];
  runningJobIds: string[];
}

export const ZHeartbeatResponse = z.object({
  cancelJobIds: z.array(z.string()).default([]),
  stop: z.boolean().default(false),
  heartbeatIntervalSeconds: z.number().positive().optional(),
});
export type HeartbeatResponse = z.output<typeof ZHeartbeatResponse>;

export const ZJobMetric = z.object({ key: z.string(), unit: z.string().optional(), direction: z.string().optional() });
export type JobMetric = z.output<typeof ZJobMetric>;

export const ZJob = z.object({
  id: z.string(),
  leaseToken: z.string(),
  leaseExpiresAt: z.string().optional(),
  leaseSeconds: z.number().positive().default(60),
  attempt: z.number().int().default(1),
  maxAttempts: z.number().int().optional(),
  batchId: z.string().nullish(),
  experiment: z.object({ slug: z.string(), title: z.string().optional() }),
  variant: z.object({ name: z.string() }),
  repetition: z.number().int(),
  warmup: z.boolean().default(false),
  workload: z.object({ name: z.string(), settings: z.record(z.string(), z.unknown()).default({}) }),
  metrics: z.array(ZJobMetric).default([]),
  // Read only to refuse them: this agent has no probes (see executeJob).
  probes: z.array(z.record(z.string(), z.unknown())).default([]),
});
export type Job = z.output<typeof ZJob>;

export const ZClaimResponse = z.object({ job: ZJob });

export const ZLeaseResponse = z.object({ leaseExpiresAt: z.string().optional(), cancelRequested: z.boolean().default(false) });
export type LeaseResponse = z.output<typeof ZLeaseResponse>;

/** One metric of a run, in the format of POST /api/v1/results. */
export interface RunMetric {
  key: string;
  unit?: string;
  direction?: string;
  samples?: number[];
  /** n, mean, sd, min and max of the same n values. */
  summary?: { n: number; mean: number; sd?: number; min?: number; max?: number };
  /** What the run contributes to comparisons when it is none of the summary's figures. */
  value?: number;
}

/** A finished run: the body of `complete` without the lease token. */
export interface RunReport {
  startedAt: string;
  finishedAt: string;
  environment: Record<string, unknown>;
  /** The commit the run measured, when the agent was told (../git-commit.ts). */
  gitCommit?: string;
  gitBranch?: string;
  /** The commit's subject line, at most 500 characters. */
  gitCommitMessage?: string;
  /** The commit time, ISO 8601 with an offset. */
  gitCommitTime?: string;
  metrics: RunMetric[];
}

export const ZCompleteResponse = z.object({
  run: z.object({ id: z.string(), repetition: z.number().optional(), url: z.string().optional() }).nullable().default(null),
  replayed: z.boolean().default(false),
});
export type CompleteResponse = z.output<typeof ZCompleteResponse>;

export interface FailRequest {
  leaseToken: string;
  error: string;
  logTail?: string;
  retryable: boolean;
  cancelled: boolean;
}

export const ZFailResponse = z.object({ status: z.string(), retryAt: z.string().nullish() });
export type FailResponse = z.output<typeof ZFailResponse>;

export const ZReleaseResponse = z.object({ status: z.string() });
