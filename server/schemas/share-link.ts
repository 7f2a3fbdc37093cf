// Share links (F5): creating, listing and changing them, the form that creates one, and exactly
// what a link shows. The shared shapes are allowlists: the service parses what it stores and what
// it serves through them, so a field added to the comparison or the charts later is not
// published by a share page unless it is added here too.
import { z } from "zod";
import { ZDirection, ZVerdict } from "../stats/schemas";
import { ZExperimentCharts } from "./charts";
import { ZSlug } from "./common";
import { ZComparison, ZComparisonQuery } from "./comparison";
import { ZMetricAggregation } from "./experiment";

export const shareModes = ["live", "snapshot"] as const;
export const ZShareMode = z.enum(shareModes, { error: "choose live or snapshot" });

export const shareStatuses = ["active", "expired", "revoked"] as const;
export type TShareStatus = (typeof shareStatuses)[number];

/** Null: the link never expires. A moment already past would make a dead link, so it is refused. */
export const ZShareExpiry = z
  .date({ error: "the expiry must be a date" })
  .nullable()
  .refine((date) => date === null || date.getTime() > Date.now(), "the expiry must be in the future");

export const ZCreateShareLink = z.object({
  projectSlug: ZSlug,
  experimentSlug: ZSlug,
  mode: ZShareMode,
  expiresAt: ZShareExpiry.default(null),
  /** The variant to compare against; the experiment's baseline (whichever it is when viewed) when omitted. */
  baseline: ZComparisonQuery.shape.baseline,
});

/** One experiment's links, or the whole project's when experimentSlug is omitted. */
export const ZListShareLinks = z.object({ projectSlug: ZSlug, experimentSlug: ZSlug.optional() });

export const ZShareLinkRef = z.object({ projectSlug: ZSlug, linkId: z.string().trim().min(1).max(64) });

export const ZSetShareLinkExpiry = ZShareLinkRef.extend({ expiresAt: ZShareExpiry });

export const ZViewShareLink = z.object({
  token: z.string().max(200),
  /** False for the link's preview image: a chat app unfurling the link is not a view. */
  countView: z.boolean().default(true),
});

/** The stored `view` column: what the link compares against. */
export const ZShareView = z.object({ baseline: z.string().nullable().default(null) });

// ---------------------------------------------------------------------------------------------
// The create form: an expiry preset or a calendar date, turned into the API's `expiresAt`.
// ---------------------------------------------------------------------------------------------

export const shareExpiryChoices = [
  { value: "never", label: "Never", days: null },
  { value: "1d", label: "In 1 day", days: 1 },
  { value: "7d", label: "In 7 days", days: 7 },
  { value: "30d", label: "In 30 days", days: 30 },
  { value: "date", label: "On a date…", days: null },
] as const;
export const ZShareExpiryChoice = z.enum(["never", "1d", "7d", "30d", "date"]);

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The moment a preset or date means. Runs in the browser: a date is the end of that day in the
 * viewer's own time zone, which is what someone picking "until Friday" means.
 */
function expiryOf(form: { expiry: z.infer<typeof ZShareExpiryChoice>; expiresOn: string }, ctx: z.RefinementCtx, now = new Date()): Date | null {
  if (form.expiry === "never") return null;
  if (form.expiry !== "date") {
    const days = shareExpiryChoices.find((choice) => choice.value === form.expiry)?.days ?? 0;
    return new Date(now.getTime() + days * DAY_MS);
  }
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(form.expiresOn);
  if (!match) {
    ctx.addIssue({ code: "custom", path: ["expiresOn"], message: "choose the last day the link works" });
    return z.NEVER;
  }
  const endOfDay = new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3]), 23, 59, 59, 999);
  if (endOfDay.getTime() <= now.getTime()) {
    ctx.addIssue({ code: "custom", path: ["expiresOn"], message: "the expiry must be in the future" });
    return z.NEVER;
  }
  return endOfDay;
}

const ZExpiryFields = z.object({ expiry: ZShareExpiryChoice, expiresOn: z.string() });

/** Changing a link's expiry from its row: the same presets as creating one. */
export const ZShareExpiryForm = ZExpiryFields.transform((form, ctx) => ({ expiresAt: expiryOf(form, ctx) }));

export const ZShareLinkForm = ZExpiryFields.extend({ mode: ZShareMode, baseline: z.string() }).transform((form, ctx) => ({
  mode: form.mode,
  baseline: form.baseline || undefined,
  expiresAt: expiryOf(form, ctx),
}));
export type TShareLinkFormValues = z.input<typeof ZShareLinkForm>;
export type TShareExpiryFormValues = z.input<typeof ZShareExpiryForm>;

// ---------------------------------------------------------------------------------------------
// What a link shows: the experiment's title, hypothesis and definition, the comparison and its
// charts, and nothing else (no run ids, no samples, no project).
// ---------------------------------------------------------------------------------------------

export const ZSharedExperiment = z.object({
  title: z.string(),
  hypothesis: z.string(),
  variants: z.array(z.object({ name: z.string(), description: z.string(), isBaseline: z.boolean(), runCount: z.number().int().nonnegative() })),
  metrics: z.array(z.object({ key: z.string(), label: z.string(), unit: z.string(), direction: ZDirection, aggregation: ZMetricAggregation })),
});

/** One verdict in one line, for the page's description and preview image; null: nothing compared. */
export const ZShareHeadline = z.object({ text: z.string(), verdict: ZVerdict.nullable() });
export type TShareHeadline = z.output<typeof ZShareHeadline>;

/** What a snapshot freezes, and what a live link recomputes on every view. */
export const ZSharedContent = z.object({
  experiment: ZSharedExperiment,
  comparison: ZComparison,
  charts: ZExperimentCharts.nullable(),
  /** Set when the charts could not be drawn; the comparison still shows. */
  chartsError: z.string().nullable(),
  /** The verdicts in one line each, for the page's description and preview image. */
  headlines: z.array(ZShareHeadline),
});

export const ZSharedComparison = ZSharedContent.extend({
  mode: ZShareMode,
  /** When the snapshot was taken; null for a live link. */
  snapshotTakenAt: z.date().nullable(),
});

export type TSharedContent = z.output<typeof ZSharedContent>;
export type TSharedComparison = z.output<typeof ZSharedComparison>;
