// The job side of the protocol (docs/agent-protocol.md: claim, lease, complete, fail, release)
// and the dashboard's batch procedures. Shared by REST, OpenAPI and tRPC.
import { z } from "zod";
import { ZLabels } from "./labels";
import { MAX_BATCH_JOBS } from "./batch-limits";
import { ZSlug } from "./common";
import { ZMetricAggregation, ZMetricDirection } from "./experiment";
import { ZRunInput } from "./results";
import { ZProbe } from "./probe";
import { ZWorkloadName, ZWorkloadSettings } from "./workload";

export const jobStatuses = ["queued", "leased", "succeeded", "failed", "cancelled"] as const;
export const ZJobStatus = z.enum(jobStatuses);
export type TJobStatus = z.output<typeof ZJobStatus>;

export const jobOrders = ["interleaved", "random"] as const;
export const ZJobOrder = z.enum(jobOrders, { error: `order must be one of ${jobOrders.join(", ")}` });
export type TJobOrder = z.output<typeof ZJobOrder>;

/** The most an error message and a log tail keep: longer ones are cut, not refused. */
export const ERROR_MAX_CHARS = 2000;
export const LOG_TAIL_MAX_BYTES = 64 * 1024;

/** The last `maxBytes` of `text` in UTF-8, never splitting a character. */
export function tailOf(text: string, maxBytes = LOG_TAIL_MAX_BYTES): string {
  const bytes = Buffer.from(text, "utf8");
  if (bytes.length <= maxBytes) return text;
  let start = bytes.length - maxBytes;
  // Skip UTF-8 continuation bytes (top two bits 10) so the tail starts on a character.
  while (start < bytes.length && ((bytes[start] as number) & 0xc0) === 0x80) start++;
  return bytes.subarray(start).toString("utf8");
}

// ---- agent calls (REST)

export const ZClaimQuery = z.object({
  wait: z.coerce
    .number({ error: "wait must be a number of seconds" })
    .int("wait must be a whole number of seconds")
    .min(0, "wait cannot be negative")
    .max(30, "wait is at most 30 seconds")
    .default(30)
    .meta({ description: "seconds to wait for a job (long-poll), 0–30" }),
});

const ZLeaseToken = z.string({ error: "leaseToken is required" }).min(1, "leaseToken is required").max(200);

/** The {id} of /api/v1/jobs/{id}/…: a job id as claim returned it (a cuid). */
export const ZJobPath = z.object({
  id: z.string().min(1).max(64, "a job id is at most 64 characters").meta({ description: "the job's id, as claim returned it" }),
});

export const ZLeaseRequest = z.object({ leaseToken: ZLeaseToken }).meta({ id: "LeaseRequest" });

/** A shard of a job group saying it is ready to start (docs/agent-protocol.md, Job groups). */
export const ZReadyRequest = z
  .object({
    leaseToken: ZLeaseToken,
    clockOffsetMs: z.number({ error: "clockOffsetMs must be a number" }).refine(Number.isFinite, "clockOffsetMs must be a finite number").optional().meta({
      description:
        "the agent's clock minus the server's, in ms, measured NTP-style on its previous ready call: ((t0 − receivedAt) + (t3 − serverTime)) / 2, t0 and t3 the agent's clock when it sent the call and read the reply",
    }),
  })
  .meta({ id: "ReadyRequest" });
export type TReadyRequest = z.output<typeof ZReadyRequest>;

export const ZReadyReply = z
  .object({
    startAt: z.iso
      .datetime()
      .nullable()
      .meta({ description: "the server-clock instant every shard of the group starts its measured load; null while shards are not ready yet (ask again)" }),
    receivedAt: z.iso.datetime().meta({ description: "the server's clock when the call arrived (t1), for the agent's clock offset" }),
    serverTime: z.iso.datetime().meta({ description: "the server's clock as it answered (t2), for the agent's clock offset" }),
    ready: z.number().int().meta({ description: "shards of the group ready so far" }),
    shards: z.number().int(),
    waitingFor: z.array(z.string()).meta({ description: "the shards not ready yet, and which agent holds each" }),
    retryAfterMs: z.number().int().meta({ description: "ask again after this long while startAt is null" }),
  })
  .meta({ id: "ReadyReply" });
export type TReadyReply = z.input<typeof ZReadyReply>;

/**
 * What a 409 about a job's lease says in `details.reason` (server/agents/lease-conflict.ts): which
 * case it is. Every one means "not yours: stop working on the job and drop its result".
 */
export const leaseConflictReasons = {
  lease_unknown: "the token was never a lease of this job (made up, mangled, or another job's)",
  lease_taken: "the lease expired, and a later attempt holds the job now",
  lease_ended: "the lease ended (it expired, or the job was given back or failed) and the job is queued again",
  job_finished: "the job has succeeded, failed or been cancelled",
  lease_of_another_agent: "the job's current lease, presented with another agent's credential",
} as const;
export type TLeaseConflictReason = keyof typeof leaseConflictReasons;

const ZTimestamp = z.iso.datetime();

export const ZLeaseReply = z
  .object({
    leaseExpiresAt: ZTimestamp,
    cancelRequested: z.boolean().meta({ description: "a user cancelled the job: stop it and call fail with cancelled: true" }),
  })
  .meta({ id: "LeaseReply" });
export type TLeaseReply = z.input<typeof ZLeaseReply>;

export const ZClaimedJob = z
  .object({
    id: z.string(),
    leaseToken: z.string().meta({ description: "vlease_…: send it with lease, complete, fail and release" }),
    leaseExpiresAt: ZTimestamp,
    leaseSeconds: z.number().int(),
    attempt: z.number().int().meta({ description: "1 for the first try" }),
    maxAttempts: z.number().int(),
    batchId: z.string(),
    experiment: z.object({ slug: z.string(), title: z.string() }),
    variant: z.object({ name: z.string() }),
    repetition: z.number().int().meta({ description: "the job's index among its variant's jobs in the batch (display only)" }),
    warmup: z.boolean().meta({ description: "a warm-up's result is checked, then discarded" }),
    workload: z
      .object({ name: ZWorkloadName, settings: ZWorkloadSettings })
      .meta({ description: "the workload to run and its settings, as the variant had them when the batch started" }),
    probes: z.array(ZProbe).optional().meta({
      description:
        "what to sample on the system under test during the measured window, as the variant had them when the batch started ([] when none); each probe's metrics are reported as `<name>.<suffix>` (docs/agent-protocol.md, Probes)",
    }),
    metrics: z.array(z.object({ key: z.string(), unit: z.string(), direction: ZMetricDirection, aggregation: ZMetricAggregation })),
    group: z
      .object({
        id: z.string(),
        shard: z.number().int().meta({ description: "this shard's index in the group, from 0" }),
        shards: z.number().int().meta({ description: "how many agents run the group together" }),
      })
      .optional()
      .meta({
        description:
          "present when the job is a shard of a job group (one load test split over several agents; the settings are this shard's share): report ready, then start at the start time the server answers (docs/agent-protocol.md, Job groups)",
      }),
  })
  .meta({ id: "ClaimedJob" });
export type TClaimedJob = z.input<typeof ZClaimedJob>;

export const ZClaimReply = z.object({ job: ZClaimedJob }).meta({ id: "ClaimReply" });

/**
 * One run as POST /api/v1/results takes it, without what the job decides (variant and
 * repetition): the commit, its branch, subject line and time included, as the agents capture them.
 */
export const ZJobRunInput = ZRunInput.omit({ variant: true, repetition: true });
export type TJobRun = z.output<typeof ZJobRunInput>;

export const ZCompleteRequest = z.object({ leaseToken: ZLeaseToken, run: ZJobRunInput }).meta({ id: "CompleteRequest" });
export type TCompleteRequest = z.output<typeof ZCompleteRequest>;

export const ZCompleteReply = z
  .object({
    run: z
      .object({ id: z.string(), repetition: z.number().int(), url: z.string() })
      .nullable()
      .meta({ description: "the stored run; null for a warm-up, whose result is discarded" }),
    replayed: z.boolean().meta({ description: "true when an earlier call completed the job: nothing new was stored" }),
  })
  .meta({ id: "CompleteReply" });
export type TCompleteReply = z.input<typeof ZCompleteReply>;

export const ZFailRequest = z
  .object({
    leaseToken: ZLeaseToken,
    error: z
      .string({ error: "error is required: say what went wrong" })
      .trim()
      .min(1, "error is required: say what went wrong")
      .transform((text) => text.slice(0, ERROR_MAX_CHARS))
      .meta({ description: `what went wrong; cut to ${ERROR_MAX_CHARS} characters` }),
    logTail: z
      .string()
      .default("")
      .transform((text) => tailOf(text))
      .meta({ description: "the end of the agent's log; its last 64 KB are kept" }),
    retryable: z.boolean().default(true).meta({ description: "false: fail the job now, whatever attempts are left" }),
    cancelled: z.boolean().default(false).meta({ description: "true acknowledges a cancellation" }),
  })
  .meta({ id: "FailRequest" });
export type TFailRequest = z.output<typeof ZFailRequest>;

export const ZFailReply = z
  .object({
    status: z.enum(["queued", "failed", "cancelled"]),
    retryAt: ZTimestamp.optional().meta({ description: "when a queued job is offered again" }),
  })
  .meta({ id: "FailReply" });
export type TFailReply = z.input<typeof ZFailReply>;

export const ZReleaseReply = z.object({ status: z.enum(["queued", "cancelled"]) }).meta({ id: "ReleaseReply" });
export type TReleaseReply = z.input<typeof ZReleaseReply>;

// ---- dashboard (tRPC)

export { MAX_BATCH_JOBS };

/**
 * What a batch is started with, from the Run dialog (tRPC) or from CI (POST
 * /api/v1/experiments/{slugOrId}/batches): which variants, how many runs, in which order, where.
 */
export const ZBatchOptions = z.object({
  order: ZJobOrder.default("interleaved").meta({ description: "interleaved (A B A B …) or random (shuffled with `seed`)" }),
  /** For a random order; the server picks one (and returns it) when left out. */
  seed: z
    .number({ error: "seed must be a whole number" })
    .int("seed must be a whole number")
    .min(0, "seed cannot be negative")
    .max(2_147_483_647, "seed must be below 2³¹")
    .optional()
    .meta({ description: "the seed of a random order (the server picks one and returns it when left out)" }),
  /** Run every job on this one agent. */
  agentId: z.string().min(1).optional().meta({ description: "run every job on this one agent (its id, from the Agents page)" }),
  /** Run only on agents with all of these labels. */
  labels: ZLabels.default({}).meta({ description: "run only on agents with all of these labels" }),
  /** Names of the variants to run; all of them when left out. */
  variants: z
    .array(z.string().trim().min(1))
    .min(1, "choose at least one variant")
    .optional()
    .meta({ description: "names of the variants to run (default: all of them)" }),
  /** Measured runs per variant; the experiment's own count when left out. */
  runs: z
    .number({ error: "runs must be a whole number" })
    .int("runs must be a whole number")
    .min(1, "runs must be at least 1")
    .max(MAX_BATCH_JOBS, `runs is at most ${MAX_BATCH_JOBS}`)
    .optional()
    .meta({ description: "measured runs per variant (default: the experiment's); warm-ups are the experiment's" }),
  maxAttempts: z
    .number()
    .int("maxAttempts must be a whole number")
    .min(1, "maxAttempts must be at least 1")
    .max(10, "maxAttempts is at most 10")
    .default(3)
    .meta({ description: "tries per job before it fails" }),
  /** An A/A batch: the baseline variant twice over, interleaved, to measure the agents' noise. */
  noise: z.boolean().default(false).meta({
    description:
      "measure noise: run only the baseline variant, 2 × runs jobs, and give each agent's run-to-run spread and the smallest change a comparison of `runs` runs can detect there (an A/A batch; `variants` must be left out)",
  }),
  /** The commit the batch measures: stamped on every run it stores, over what the agent says. */
  commit: ZRunInput.shape.gitCommit.meta({ description: "git commit stamped on every run of the batch (for the history and the CI gate)" }),
  branch: ZRunInput.shape.gitBranch.meta({ description: "git branch of that commit" }),
  commitMessage: ZRunInput.shape.gitCommitMessage.meta({ description: "the commit's subject line (shown on the history)" }),
  commitTime: ZRunInput.shape.gitCommitTime.meta({ description: "when the commit was made, ISO 8601 with an offset (the history orders commits by it)" }),
});

export const ZStartBatch = z.object({ projectSlug: ZSlug, experimentSlug: ZSlug }).extend(ZBatchOptions.shape);
export type TStartBatch = z.output<typeof ZStartBatch>;

export const ZBatchRef = z.object({ projectSlug: ZSlug, batchId: z.string().min(1, "batchId is required") });
export const ZJobRef = z.object({ projectSlug: ZSlug, jobId: z.string().min(1, "jobId is required") });
export const ZRetryFailed = ZBatchRef.extend({ jobId: z.string().min(1).optional() });
/** The stored noise floor, and the runs a side a change of ± minChangePercent % needs there (the Run dialog asks). */
export const ZNoiseFloorQuery = z.object({
  projectSlug: ZSlug,
  experimentSlug: ZSlug,
  minChangePercent: z
    .number({ error: "the change must be a number of percent" })
    .gt(0, "the change must be above 0%")
    .max(1000, "the change must be at most 1000%")
    .default(2),
});

export const ZBatchesQuery = z.object({ projectSlug: ZSlug, experimentSlug: ZSlug, limit: z.number().int().min(1).max(50).default(10) });
