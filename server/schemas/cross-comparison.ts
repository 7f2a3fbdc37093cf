// Comparing two sets of runs picked across experiments or commits ("before/after a deploy"):
// the request, its form in the page's URL, the choices the form offers, and the result. Each
// metric's result has exactly the shape of an experiment comparison's metric entry, so the same
// table shows both.
import { z } from "zod";
import { ZSlug } from "./common";
import { ZComparison } from "./comparison";
import { ZMetricKey } from "./experiment";

const ZVariantName = z.string().trim().min(1).max(100);
const ZGitCommit = z.string().trim().min(1).max(64);

/** Runs of one experiment, optionally only one variant's and/or one commit's. */
export const ZRunSetRef = z.object({
  experimentSlug: ZSlug,
  variant: ZVariantName.optional(),
  /** A full commit id, or a prefix of one (e.g. the 7-character short id). */
  gitCommit: ZGitCommit.optional(),
});
export type TRunSetRef = z.output<typeof ZRunSetRef>;

export const ZCrossComparisonRequest = z.object({
  projectSlug: ZSlug,
  before: ZRunSetRef,
  after: ZRunSetRef,
  /** Only these metrics; every metric of the "before" experiment when omitted. */
  metricKeys: z.array(ZMetricKey).max(200).optional(),
});
export type TCrossComparisonRequest = z.output<typeof ZCrossComparisonRequest>;

/** An empty form field ("any variant") arrives as "" in the URL: treat it as absent. */
const optionalParam = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => (typeof value === "string" && value.trim() === "" ? undefined : value), schema.optional());

/** The compare page's query string, so a comparison is a link. */
export const ZCrossComparisonQuery = z.object({
  before: optionalParam(ZSlug),
  beforeVariant: optionalParam(ZVariantName),
  beforeCommit: optionalParam(ZGitCommit),
  after: optionalParam(ZSlug),
  afterVariant: optionalParam(ZVariantName),
  afterCommit: optionalParam(ZGitCommit),
});
export type TCrossComparisonQuery = z.output<typeof ZCrossComparisonQuery>;

/** The request a complete query stands for; null while either side has no experiment yet. */
export function requestOfQuery(projectSlug: string, query: TCrossComparisonQuery): TCrossComparisonRequest | null {
  if (!query.before || !query.after) return null;
  return {
    projectSlug,
    before: { experimentSlug: query.before, variant: query.beforeVariant, gitCommit: query.beforeCommit },
    after: { experimentSlug: query.after, variant: query.afterVariant, gitCommit: query.afterCommit },
  };
}

/** What the compare form offers: per experiment, its variants and the commits its runs name. */
export const ZRunSetOptions = z.object({
  experiments: z.array(
    z.object({
      slug: z.string(),
      title: z.string(),
      variants: z.array(z.object({ name: z.string(), runs: z.number().int() })),
      commits: z.array(
        z.object({
          gitCommit: z.string(),
          gitBranch: z.string().nullable(),
          /** The commit's subject line and commit time, when its runs gave them. */
          message: z.string().nullable(),
          committedAt: z.date().nullable(),
          runs: z.number().int(),
          lastRunAt: z.date(),
        }),
      ),
    }),
  ),
});
export type TRunSetOptions = z.output<typeof ZRunSetOptions>;

/** One side of the comparison as it was resolved. */
export const ZRunSet = z.object({
  experiment: z.object({ slug: z.string(), title: z.string() }),
  variant: z.string().nullable(),
  gitCommit: z.string().nullable(),
  /** Succeeded runs in the set (failed runs are never compared). */
  runs: z.number().int(),
});
export type TRunSet = z.output<typeof ZRunSet>;

export const ZCrossComparison = z
  .object({
    before: ZRunSet,
    after: ZRunSet,
    /** The stricter of the two experiments' significance levels. */
    alpha: z.number(),
    /** Per metric, with "before" as the baseline and "after" as the one candidate. */
    metrics: z.array(ZComparison.shape.metrics.element),
    notes: z.array(z.string()),
  })
  .meta({ id: "CrossComparison" });
export type TCrossComparison = z.output<typeof ZCrossComparison>;
