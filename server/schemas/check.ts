// The CI gate (GET /api/v1/experiments/{slugOrId}/check, `npx versus check`) and the status
// badge (GET …/badge/{metric}.svg): one commit's runs against the runs of the commits before it
// on a branch. REST, OpenAPI and the CLI share these shapes.
import { z } from "zod";
import { ZDirection, ZVerdict } from "../stats/schemas";
import { ZComparison } from "./comparison";

/** How many earlier commits make the baseline window when the caller does not say. */
export const DEFAULT_CHECK_WINDOW = 5;
export const MAX_CHECK_WINDOW = 100;
/**
 * The smallest change (in %, either way) that can be a regression or an improvement when the
 * caller does not say. Significance alone is not enough: with enough runs a change of a few
 * bytes or a few tenths of a per cent is significant, and a gate that fails on those is one
 * nobody keeps. 2% is above the run-to-run noise of most CI machines' medians.
 */
export const DEFAULT_MIN_CHANGE_PERCENT = 2;
export const MAX_MIN_CHANGE_PERCENT = 1000;

const ZBranch = z.string().trim().min(1, "give the branch name").max(255, "a branch name is at most 255 characters");

/** A git commit: a full hash or a unique prefix of at least 7 hex digits. */
export const ZCommitRef = z
  .string()
  .trim()
  .max(64, "a commit is 7 to 64 hex digits (a full hash or a unique prefix)")
  .regex(/^[0-9a-fA-F]{7,64}$/, "a commit is 7 to 64 hex digits (a full hash or a unique prefix)")
  .toLowerCase();

/** Query strings carry numbers as text. */
const windowParam = z.coerce
  .number({ error: "window must be a whole number" })
  .int("window must be a whole number")
  .min(1, "window must be at least 1 commit")
  .max(MAX_CHECK_WINDOW, `window must be at most ${MAX_CHECK_WINDOW} commits`);

/** The minimum change in %: a number from 0 (significance alone decides) to MAX_MIN_CHANGE_PERCENT. */
export const minChangeParam = z.preprocess(
  // An empty parameter is a mistake, not 0 (which Number("") would make it).
  (value) => (typeof value === "string" && value.trim() === "" ? Number.NaN : value),
  z.coerce
    .number({ error: "minChange must be a number of per cent, e.g. 2" })
    .min(0, "minChange must be at least 0 (%)")
    .max(MAX_MIN_CHANGE_PERCENT, `minChange must be at most ${MAX_MIN_CHANGE_PERCENT} (%)`),
);

export const ZCheckQuery = z.object({
  commit: ZCommitRef.meta({ description: "the commit to check (full hash or a unique prefix of ≥ 7 hex digits)" }),
  branch: ZBranch.meta({ description: "the branch whose earlier commits are the baseline" }),
  window: windowParam
    .default(DEFAULT_CHECK_WINDOW)
    .meta({ description: `how many earlier commits on the branch make the baseline (default ${DEFAULT_CHECK_WINDOW})` }),
  variant: z.string().trim().min(1).max(100).optional().meta({ description: "check only this variant (default: every variant with runs at the commit)" }),
  minChange: minChangeParam.default(DEFAULT_MIN_CHANGE_PERCENT).meta({
    description: `the smallest change, in % either way, that counts: a metric is worse or better only when its change is significant AND at least this large, else no change (default ${DEFAULT_MIN_CHANGE_PERCENT}; 0: significance alone decides)`,
  }),
});
export type TCheckQuery = z.output<typeof ZCheckQuery>;

/** regression: some metric got worse; improvement: none worse and some better. */
export const ZCheckVerdict = z.enum(["regression", "improvement", "no_change", "insufficient_data"]);
export type TCheckVerdict = z.output<typeof ZCheckVerdict>;

export const ZCheckMetric = z.object({
  variant: z.string(),
  key: z.string(),
  label: z.string(),
  unit: z.string(),
  direction: ZDirection,
  aggregation: z.string().describe("how each run is reduced to the one value compared across runs"),
  verdict: ZVerdict,
  /** Median of the commit's runs vs the window's, in % (raw sign); null when not computable. */
  changePercent: z.number().nullable(),
  median: z.number().nullable().describe("median of the commit's runs"),
  baselineMedian: z.number().nullable().describe("median of the baseline window's runs"),
  reason: z.string(),
  belowMinChange: z.boolean().describe("significant, but smaller than minChange: counted as no change"),
});
export type TCheckMetric = z.output<typeof ZCheckMetric>;

export const ZCheckResult = z
  .object({
    experiment: z.object({ slug: z.string(), title: z.string(), url: z.string() }),
    commit: z.string().describe("the full hash of the checked commit"),
    branch: z.string(),
    window: z.object({
      requested: z.number().int(),
      commits: z
        .array(z.object({ commit: z.string(), runs: z.number().int() }))
        .describe("the earlier commits on the branch that make the baseline, newest first"),
    }),
    verdict: ZCheckVerdict,
    minChangePercent: z.number().describe("the minimum change the verdicts used (minChange)"),
    metrics: z.array(ZCheckMetric),
    comparisons: z.array(ZComparison).describe("per variant: the full comparison of the commit (candidate) against the window (baseline)"),
    markdown: z.string().describe("the summary as Markdown (the experiment report's tables), e.g. for a pull-request comment"),
  })
  .meta({ id: "CheckResult" });
export type TCheckResult = z.output<typeof ZCheckResult>;

export const ZBadgePath = z.object({
  metric: z
    .string()
    .min(5)
    .max(140)
    .regex(/\.svg$/, "the badge is <metric key>.svg")
    .transform((file) => file.slice(0, -".svg".length))
    .meta({ description: "the metric's key followed by .svg" }),
});

export const ZBadgeQuery = z.object({
  branch: ZBranch.optional().meta({ description: "the branch (default: the branch of the latest run with a commit)" }),
  variant: z.string().trim().min(1).max(100).optional().meta({ description: "the variant (default: the experiment's baseline variant)" }),
  window: windowParam.default(DEFAULT_CHECK_WINDOW).meta({ description: "how many earlier commits the latest one is compared with" }),
  minChange: minChangeParam
    .default(DEFAULT_MIN_CHANGE_PERCENT)
    .meta({ description: `the smallest change, in %, shown as worse or better (default ${DEFAULT_MIN_CHANGE_PERCENT})` }),
  share: z.string().max(100).optional().meta({ description: "a live share link's token (vsh_…): lets a README show the badge without an API key" }),
});

/** The badge's address; `share` is a live share link's token (base64url: safe in a URL as it is). */
export function badgeUrl(origin: string, experimentSlug: string, metricKey: string, share?: string): string {
  return `${origin}/api/v1/experiments/${encodeURIComponent(experimentSlug)}/badge/${encodeURIComponent(metricKey)}.svg${share ? `?share=${share}` : ""}`;
}

/** The Markdown a README embeds: the badge, linking to the experiment's share page. */
export function badgeMarkdown(origin: string, experimentSlug: string, metricKey: string, share: string, linkTo: string): string {
  return `[![${metricKey}](${badgeUrl(origin, experimentSlug, metricKey, share)})](${linkTo})`;
}
