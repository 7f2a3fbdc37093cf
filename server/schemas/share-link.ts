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
import { withExpiry, ZExpiresAt } from "./expiry";

export const shareModes = ["live", "snapshot"] as const;
export const ZShareMode = z.enum(shareModes, { error: "choose live or snapshot" });

export const shareStatuses = ["active", "expired", "revoked"] as const;
export type TShareStatus = (typeof shareStatuses)[number];

export const ZCreateShareLink = z.object({
  projectSlug: ZSlug,
  experimentSlug: ZSlug,
  mode: ZShareMode,
  expiresAt: ZExpiresAt.default(null),
  /** The variant to compare against; the experiment's baseline (whichever it is when viewed) when omitted. */
  baseline: ZComparisonQuery.shape.baseline,
});

/** One experiment's links, or the whole project's when experimentSlug is omitted. */
export const ZListShareLinks = z.object({ projectSlug: ZSlug, experimentSlug: ZSlug.optional() });

export const ZShareLinkRef = z.object({ projectSlug: ZSlug, linkId: z.string().trim().min(1).max(64) });

export const ZSetShareLinkExpiry = ZShareLinkRef.extend({ expiresAt: ZExpiresAt });

export const ZViewShareLink = z.object({
  token: z.string().max(200),
  /** False for the link's preview image: a chat app unfurling the link is not a view. */
  countView: z.boolean().default(true),
});

/** The stored `view` column: what the link compares against. */
export const ZShareView = z.object({ baseline: z.string().nullable().default(null) });

// ---------------------------------------------------------------------------------------------
// The forms: the create form and a link's "Change expiry", both with the expiry picker.
// ---------------------------------------------------------------------------------------------

export const ZShareLinkForm = withExpiry({ mode: ZShareMode, baseline: z.string().transform((name) => name || undefined) });
export const ZShareExpiryForm = withExpiry({});
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
