// A metric's history over commits and its change points: tRPC, REST and OpenAPI share these shapes.
import { z } from "zod";
import { ZSlug } from "./common";
import { ZProjectRef } from "./project";

const ZIsoTime = z.iso.datetime({ offset: true, error: "must be an ISO 8601 date-time, e.g. 2026-03-01T00:00:00Z" });

/** GET /api/v1/experiments/{slugOrId}/history and the page's query (defaults: first metric, baseline variant, all branches). */
export const ZHistoryQuery = z.object({
  metric: z
    .string()
    .trim()
    .min(1, "metric must not be empty")
    .max(100)
    .optional()
    .meta({ description: "metric key; the experiment's first metric when omitted" }),
  variant: z.string().trim().min(1, "variant must not be empty").max(100).optional().meta({ description: "variant name; the baseline when omitted" }),
  branch: z
    .string()
    .trim()
    .min(1, "branch must not be empty")
    .max(200)
    .optional()
    .meta({ description: "only runs on this git branch; all branches when omitted" }),
  from: ZIsoTime.optional().meta({ description: "only commits at or after this time (zoom)" }),
  to: ZIsoTime.optional().meta({ description: "only commits at or before this time (zoom)" }),
  maxPoints: z.coerce
    .number({ error: "maxPoints must be a number" })
    .int("maxPoints must be a whole number")
    .min(50, "maxPoints is at least 50")
    .max(5000, "maxPoints is at most 5000")
    .default(800)
    .meta({
      description:
        "at most this many commits are returned; longer windows are thinned keeping each slice's lowest and highest median and the commits around change points",
    }),
});
export type THistoryQuery = z.output<typeof ZHistoryQuery>;

export const ZHistoryRef = z.object({ projectSlug: ZSlug, experimentSlug: ZSlug }).extend(ZHistoryQuery.shape);

export const ZChangePointStatus = z.enum(["open", "acknowledged", "dismissed"]);

export const ZHistoryPoint = z.object({
  commit: z.string(),
  branch: z.string().nullable(),
  time: z.string().describe("the commit's time when uploaded with gitCommitTime, else its first run's start"),
  message: z.string().nullable(),
  median: z.number().describe("median of the commit's run values"),
  ciLow: z.number().describe("95% CI of the median (order statistics; [min, max] below 6 runs)"),
  ciHigh: z.number(),
  runValues: z.array(z.number()).describe("each run's figure — its value when it sent one, else the metric's aggregation of it — ascending"),
});

export const ZHistoryChangePoint = z.object({
  id: z.string(),
  commit: z.string().describe("first commit of the new level"),
  previousCommit: z.string().describe("last commit before it: the change came in previousCommit..commit"),
  time: z.string().nullable().describe("the commit's time in the series; null if it is outside the series now"),
  before: z.number().describe("median of the commit medians before"),
  after: z.number().describe("median of the commit medians after"),
  changePercent: z.number().nullable(),
  ciLowPercent: z.number().nullable().describe("95% Hodges–Lehmann interval of the change, in %"),
  ciHighPercent: z.number().nullable(),
  verdict: z.enum(["regression", "improvement"]).describe("by the metric's direction"),
  pValue: z.number().describe("permutation p-value of the E-Divisive split"),
  status: ZChangePointStatus,
  reviewedBy: z.string().nullable(),
  reviewedAt: z.string().nullable(),
});

export const ZHistory = z
  .object({
    experiment: z.object({ slug: z.string(), title: z.string() }),
    metric: z.object({
      key: z.string(),
      label: z.string(),
      unit: z.string(),
      direction: z.enum(["lower_is_better", "higher_is_better"]),
      aggregation: z.string(),
    }),
    variant: z.string(),
    branch: z.string().nullable().describe("null: all branches"),
    metrics: z.array(z.object({ key: z.string(), label: z.string(), unit: z.string() })),
    variants: z.array(z.string()),
    branches: z.array(z.object({ branch: z.string(), commits: z.number().int() })),
    repositoryUrl: z.string().nullable().describe("the project's repository; a commit's page is <repositoryUrl>/commit/<sha>"),
    commits: z.number().int().describe("commits in the whole series"),
    range: z.object({ from: z.string(), to: z.string() }).nullable().describe("time of the first and last commit of the series"),
    window: z
      .object({ from: z.string().nullable(), to: z.string().nullable(), commits: z.number().int() })
      .describe("the requested window and how many commits fall in it"),
    downsampled: z.boolean().describe("true when the window held more commits than maxPoints and was thinned"),
    points: z.array(ZHistoryPoint),
    changePoints: z.array(ZHistoryChangePoint),
  })
  .meta({ id: "History" });
export type THistory = z.output<typeof ZHistory>;

/** Acknowledge, dismiss or reopen a change point. */
export const ZReviewChangePoint = z.object({ projectSlug: ZSlug, id: z.string().min(1).max(64), status: ZChangePointStatus });

/** Where the project's commits can be browsed: http(s) only, so a link is never javascript:. */
export const ZRepositoryUrl = z
  .union([
    z.literal(""),
    z
      .url({ protocol: /^https?$/, error: "use an http(s) address, e.g. https://github.com/acme/app" })
      .trim()
      .max(300, "at most 300 characters")
      .transform((u) => u.replace(/\/+$/, "")),
  ])
  .default("");

export const ZSetRepositoryUrl = ZProjectRef.extend({ repositoryUrl: ZRepositoryUrl });
