// The upload format of POST /api/v1/results (and what imports are turned into): one or more
// runs of one experiment, each with per-metric raw samples and/or summaries and time series.
import { z } from "zod";
import { ZSlug, wholeNumber } from "./common";
import { MAX_INPUT_DEPTH } from "./storable";
import { ZMetricAggregation, ZMetricDirection, ZMetricKey } from "./experiment";
import { SUMMARY_RULES, summaryContradictions } from "./summary-rules";

/**
 * Finite numbers only: Zod's number refuses NaN and ±Infinity itself, which JSON text carries too
 * (1e999 parses as Infinity), and JS callers and hand-made files might. No refinement on top: on a
 * million samples it cost a third of the array's validation and never ran (a refinement runs only
 * on a value the type accepted).
 */
const finite = (what: string) =>
  z.number({ error: (issue) => (typeof issue.input === "number" ? `${what} must be a finite number` : `${what} must be a number`) });
/** A count stored in an Int column. */
const count = (what: string) => wholeNumber(what).min(0, `${what} cannot be negative`);
/** A count stored in a BigInt column: up to 2^53, where Zod's int() stops. */
const bigCount = (what: string) =>
  z
    .number({ error: `${what} must be a whole number` })
    .int({ error: (issue) => (issue.code === "too_big" ? `${what} must be at most ${Number.MAX_SAFE_INTEGER} (2^53 − 1)` : `${what} must be a whole number`) })
    .min(0, `${what} cannot be negative`);

export const ZSummaryInput = z
  .object({
    // A long load test counts more requests than an Int holds.
    n: bigCount("n").min(1, "n must be at least 1"),
    mean: finite("mean"),
    sd: finite("sd").min(0, "sd cannot be negative").optional(),
    min: finite("min").optional(),
    max: finite("max").optional(),
    p50: finite("p50").optional(),
    p90: finite("p90").optional(),
    p95: finite("p95").optional(),
    p99: finite("p99").optional(),
    p999: finite("p999").optional(),
    sum: finite("sum").optional(),
  })
  // One rule set (summary-rules.ts) for every way a run comes in: uploads, imports, agents.
  .superRefine((summary, ctx) => {
    for (const issue of summaryContradictions(summary)) ctx.addIssue({ code: "custom", path: [issue.field], message: issue.message });
  })
  .meta({ description: `A summary of n values (every request's latency, every second's rate…). ${SUMMARY_RULES}` });

export const ZTimeSeriesInput = z
  .object({
    /** When the first point was taken; defaults to the run's startedAt. */
    startedAt: z.iso.datetime({ offset: true }).optional(),
    /** Milliseconds from startedAt for each value; or give intervalMs for evenly spaced points. */
    offsetsMs: z.array(finite("offset").min(0, "offsets cannot be negative")).optional(),
    intervalMs: finite("intervalMs").positive("intervalMs must be positive").optional(),
    values: z.array(finite("value")).min(1, "a time series needs at least one value"),
  })
  .refine((t) => t.offsetsMs !== undefined || t.intervalMs !== undefined, { message: "give offsetsMs or intervalMs", path: ["intervalMs"] })
  .refine((t) => t.offsetsMs === undefined || t.offsetsMs.length === t.values.length, {
    message: "offsetsMs and values must have the same length",
    path: ["offsetsMs"],
  })
  // The refinements above, as far as JSON Schema can say them (the OpenAPI document shows these).
  .meta({
    description: "Give offsetsMs (as many as values) or intervalMs.",
    anyOf: [{ required: ["offsetsMs"] }, { required: ["intervalMs"] }],
  });

/** A run's metric needs at least one of these. */
const metricDataFields = ["samples", "samplesBase64", "summary", "histogram", "timeSeries", "value"] as const;

export const ZRunMetricInput = z
  .object({
    key: ZMetricKey,
    /** Unit and direction are needed only to create a metric the experiment does not have yet. */
    unit: z.string().trim().min(1).max(32).optional(),
    direction: ZMetricDirection.optional(),
    aggregation: ZMetricAggregation.optional(),
    label: z.string().trim().max(100).optional(),
    /** Raw per-operation values (e.g. every request's latency). */
    samples: z.array(finite("sample")).min(1, "samples cannot be empty; leave the field out instead").optional(),
    /** The same, as base64 of little-endian float64 values: 8 bytes a sample, no JSON parsing. */
    samplesBase64: z.string().min(1, "samplesBase64 cannot be empty").meta({ contentEncoding: "base64" }).optional(),
    summary: ZSummaryInput.optional(),
    /** An HdrHistogram in V2 compressed encoding, base64, recording round(value × histogramScale). */
    histogram: z.string().min(1).meta({ contentEncoding: "base64" }).optional(),
    histogramScale: finite("histogramScale").positive("histogramScale must be positive").optional(),
    timeSeries: ZTimeSeriesInput.optional(),
    value: finite("value")
      .optional()
      .meta({
        description:
          "What this run contributes to comparisons when it is none of its summary's figures: the whole run's rate (requests ÷ seconds) while the summary " +
          "describes per-second values, or the run's own p99 over all its requests. Without it, a run contributes its summary reduced by the metric's aggregation.",
      }),
  })
  .refine((m) => metricDataFields.some((field) => m[field] !== undefined), {
    message: "give samples, samplesBase64, summary, histogram, timeSeries or value",
  })
  .refine((m) => !(m.samples && m.samplesBase64), { message: "give samples or samplesBase64, not both", path: ["samplesBase64"] })
  .refine((m) => !m.histogram || m.histogramScale !== undefined, { message: "histogramScale is required with histogram", path: ["histogramScale"] })
  // The refinements above, as far as JSON Schema can say them (the OpenAPI document shows these).
  .meta({
    description:
      "Give samples, samplesBase64, summary, histogram, timeSeries or value (samples and samplesBase64 not both; histogram with histogramScale). " +
      "The stored summary describes the samples, the histogram's values or the time series' points (a summary given wins); a value alone is stored as a summary of that one value.",
    anyOf: metricDataFields.map((field) => ({ required: [field] })),
    not: { required: ["samples", "samplesBase64"] },
    dependentRequired: { histogram: ["histogramScale"] },
  });

export const MAX_RUN_WARNINGS = 20;
export const MAX_WARNING_CHARS = 500;

export const ZRunInput = z.object({
  variant: z.string().trim().min(1, "variant is required").max(100),
  status: z.enum(["succeeded", "failed"]).default("succeeded"),
  repetition: count("repetition").optional(),
  startedAt: z.iso.datetime({ offset: true }).optional(),
  finishedAt: z.iso.datetime({ offset: true }).optional(),
  /** CPU model, cores, memory, OS, runtime versions, container limits… */
  environment: z
    .record(z.string(), z.unknown())
    .default({})
    .meta({ description: `Free-form JSON; the whole upload is at most ${MAX_INPUT_DEPTH} levels of objects and arrays deep.` }),
  gitCommit: z.string().trim().max(64).optional(),
  gitBranch: z.string().trim().max(200).optional(),
  /** The commit's subject line, shown when hovering the commit in the metric's history. */
  gitCommitMessage: z.string().trim().max(500).optional(),
  /** When the commit was made: the history orders commits by it (else by their first run). */
  gitCommitTime: z.iso.datetime({ offset: true }).optional(),
  tags: z.array(z.string().trim().min(1).max(40)).max(20).default([]),
  /** Where the numbers came from, e.g. "jmh 1.37" or "synthetic samples from a published summary". */
  sourceDetail: z.string().trim().max(200).optional(),
  warnings: z
    .array(
      z
        .string({ error: "warnings: each warning must be text" })
        .trim()
        .min(1, "warnings: a warning cannot be blank")
        .max(MAX_WARNING_CHARS, `warnings: a warning must be at most ${MAX_WARNING_CHARS} characters`),
    )
    .max(MAX_RUN_WARNINGS, `warnings: at most ${MAX_RUN_WARNINGS} warnings per run`)
    .optional()
    .meta({
      description: `What the producer noticed that the figures alone do not say, e.g. a probe that did not answer for some intervals; shown with the run. At most ${MAX_RUN_WARNINGS}, each at most ${MAX_WARNING_CHARS} characters.`,
    }),
  metrics: z.array(ZRunMetricInput).min(1, "a run needs at least one metric").max(200),
});

export const ZResultsUpload = z.object({
  /** Experiment slug in the API key's project. */
  experiment: ZSlug,
  /** Create the experiment, variants and metrics that do not exist yet (CI uploads without clicking). */
  create: z.boolean().default(false),
  /** Title for an experiment created by this upload; defaults to the slug. */
  experimentTitle: z.string().trim().min(1).max(200).optional(),
  runs: z.array(ZRunInput).min(1, "runs cannot be empty").max(1000, "at most 1000 runs per upload"),
});

/**
 * The Idempotency-Key header of uploads and imports; a blank one counts as absent. Retries with
 * the same key and body store the runs once.
 */
export const ZIdempotencyHeaders = z.object({
  "Idempotency-Key": z
    .string()
    .max(200, "must be at most 200 characters")
    .regex(/^[\x21-\x7e]+$/, "must be visible ASCII characters (no spaces)")
    .optional()
    .meta({ description: "Retries with the same key and body store the runs once (200 with replayed: true); the same key with another body is a 409." }),
});

export type TResultsUpload = z.output<typeof ZResultsUpload>;
export type TRunInput = z.output<typeof ZRunInput>;
export type TRunMetricInput = z.output<typeof ZRunMetricInput>;
/** A metric as storing reads it: its samples may be a typed array (a large JSON array is read straight into one, server/api/rest/lifted-samples.ts). */
export type TRunMetricToStore = Omit<TRunMetricInput, "samples" | "samplesBase64"> & {
  samples?: ArrayLike<number>;
  /** The text as sent, or its values already decoded from the body's bytes (lifted-samples.ts). */
  samplesBase64?: string | Float64Array;
};
/** An upload as storing reads it (TRunMetricToStore). */
export type TUploadToStore = Omit<TResultsUpload, "runs"> & { runs: (Omit<TRunInput, "metrics"> & { metrics: TRunMetricToStore[] })[] };

export const ZUploadResponse = z.object({
  experiment: z.object({ slug: z.string(), url: z.string() }),
  replayed: z.boolean().describe("true when an earlier request with the same Idempotency-Key and body stored these runs"),
  runs: z.array(z.object({ id: z.string(), variant: z.string(), repetition: z.number().int(), metrics: z.array(z.string()) })),
  created: z.object({ experiment: z.boolean(), variants: z.array(z.string()), metrics: z.array(z.string()) }),
});
export type TUploadResponse = z.output<typeof ZUploadResponse>;
