// Batches started and watched through the REST API (POST /api/v1/experiments/{slugOrId}/batches,
// GET /api/v1/batches/{id}, POST /api/v1/batches/{id}/cancel; `versus run`): REST, OpenAPI and
// the CLI share these shapes. The options a batch starts with are the Run dialog's (jobs.ts).
import { z } from "zod";
import { ZCheckMetric, ZCheckVerdict, DEFAULT_MIN_CHANGE_PERCENT, minChangeParam } from "./check";
import { ZComparison } from "./comparison";
import { ZBatchOptions, ZJobOrder } from "./jobs";

/** The longest a GET of a batch waits for news. */
export const MAX_BATCH_WAIT_SECONDS = 30;

export const ZStartBatchRequest = ZBatchOptions.meta({ id: "StartBatchRequest" });
export type TStartBatchRequest = z.output<typeof ZStartBatchRequest>;

/** The {id} of /api/v1/batches/{id}/…: a batch id as start returned it. */
export const ZBatchPath = z.object({
  id: z.string().min(1).max(64, "a batch id is at most 64 characters").meta({ description: "the batch's id, as starting it returned it" }),
});

export const ZBatchWaitQuery = z.object({
  wait: z.coerce
    .number({ error: "wait must be a number of seconds" })
    .int("wait must be a whole number of seconds")
    .min(0, "wait cannot be negative")
    .max(MAX_BATCH_WAIT_SECONDS, `wait is at most ${MAX_BATCH_WAIT_SECONDS} seconds`)
    .default(0)
    .meta({ description: `seconds to wait for the batch to change or finish (long-poll), 0–${MAX_BATCH_WAIT_SECONDS}; 0 answers at once` }),
  seen: z
    .string()
    .max(100)
    .optional()
    .meta({ description: "the `version` of the last answer: a change since then answers at once, even one that came between two calls" }),
  minChange: minChangeParam.default(DEFAULT_MIN_CHANGE_PERCENT).meta({
    description: `the smallest change, in % either way, that the batch's verdict counts as worse or better (default ${DEFAULT_MIN_CHANGE_PERCENT}; 0: significance alone decides)`,
  }),
});
export type TBatchWaitQuery = z.output<typeof ZBatchWaitQuery>;

export const batchStates = ["queued", "running", "succeeded", "failed", "cancelled"] as const;

const ZJobCounts = z.object({
  total: z.number().int(),
  queued: z.number().int(),
  leased: z.number().int(),
  succeeded: z.number().int(),
  failed: z.number().int(),
  cancelled: z.number().int(),
});

export const ZNoiseFloorEntry = z
  .object({
    metric: z.string(),
    unit: z.string(),
    agent: z.string().describe("the agent the A/A batch's runs ran on"),
    noiseRuns: z.number().int().describe("the A/A batch's runs on this agent"),
    median: z.number().describe("the median of those runs' values"),
    sd: z.number().nullable().describe("their standard deviation (run to run)"),
    spreadPercent: z.number().nullable().describe("sd as a % of the median"),
    runs: z.number().int().describe("runs per side the MDE is for"),
    mdePercent: z
      .number()
      .nullable()
      .describe("the smallest change (± % of the median) the U test finds at the experiment's α with 80 % power with `runs` runs per side; null below 4 runs"),
    runsForMinChange: z
      .number()
      .int()
      .nullable()
      .describe("runs per side for the MDE to be at most the verdict's minChange %; null when the spread is unknown or the median is 0"),
    measuredAt: z.iso.datetime(),
    batchId: z.string().describe("the A/A batch it was measured by"),
  })
  .meta({ id: "NoiseFloorEntry" });
export type TNoiseFloorEntry = z.input<typeof ZNoiseFloorEntry>;

export const ZBatchResult = z
  .object({
    verdict: ZCheckVerdict.describe("regression: some metric of some variant got worse than the baseline; improvement: none worse, some better"),
    minChangePercent: z.number(),
    metrics: z.array(ZCheckMetric).describe("per candidate variant and metric: its verdict against the baseline, with minChange applied"),
    comparison: ZComparison.describe("the comparison of the batch's own runs (no other run of the experiment)"),
    noise: z
      .array(ZNoiseFloorEntry)
      .describe(
        "a noise batch: each agent's spread and MDE at the experiment's run count; any other batch: the noise floor of the agents that ran it, from the experiment's latest noise batch, at this batch's run count ([] when there is none)",
      ),
    markdown: z.string().describe("the verdict and the experiment report's tables, as Markdown (e.g. for a pull-request comment)"),
  })
  .meta({ id: "BatchResult" });

export const ZBatchStatus = z
  .object({
    id: z.string(),
    experiment: z.object({ slug: z.string(), title: z.string(), url: z.string() }),
    state: z
      .enum(batchStates)
      .describe(
        "queued: no job started yet; running: some job started and some are unfinished; succeeded: every job succeeded; failed: every job finished and some failed; cancelled: the batch was cancelled",
      ),
    createdAt: z.iso.datetime(),
    cancelledAt: z.iso.datetime().nullable(),
    order: ZJobOrder,
    seed: z.number().int().nullable(),
    variants: z.array(z.string()),
    noise: z.boolean().describe("an A/A batch measuring the agents' noise"),
    commit: z.string().nullable(),
    branch: z.string().nullable(),
    jobs: ZJobCounts,
    agents: z.array(z.object({ name: z.string(), running: z.number().int() })).describe("the agents running jobs of the batch now"),
    etaSeconds: z
      .number()
      .nullable()
      .describe(
        "about how long the unfinished jobs will take, from earlier jobs of the experiment (or the workloads' settings) and the agents running it; null when nothing says",
      ),
    waiting: z.array(z.string()).describe("while jobs are queued and no agent could take them now: why; [] otherwise"),
    failures: z.array(z.object({ variant: z.string(), error: z.string() })).describe("the errors of failed jobs (at most 10)"),
    version: z.string().describe("changes whenever the progress does: pass it back as `seen`"),
    result: ZBatchResult.nullable().describe("once every job succeeded: the verdict on the batch's runs; null before, and for a failed or cancelled batch"),
  })
  .meta({ id: "BatchStatus" });
export type TBatchStatus = z.input<typeof ZBatchStatus>;

export const ZCancelBatchReply = z
  .object({ id: z.string(), cancelled: z.number().int().describe("queued jobs cancelled"), stopping: z.number().int().describe("running jobs asked to stop") })
  .meta({ id: "CancelBatchReply" });
