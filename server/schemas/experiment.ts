// The shapes of an experiment definition, shared by tRPC procedures, REST, OpenAPI and forms.
import { z } from "zod";
import { maxRunsPerVariant, MAX_BATCH_JOBS } from "./batch-limits";
import { ZSlug, wholeNumber } from "./common";
import { ZMetricAggregation, ZMetricDirection, ZMetricKey, ZMetricUnit } from "./metric";
import { ZVariantConfig } from "./workload";

export { metricAggregations, metricDirections, ZMetricAggregation, ZMetricDirection, ZMetricKey, ZMetricUnit } from "./metric";

export const experimentStatuses = ["draft", "active", "completed", "archived"] as const;
export const ZExperimentStatus = z.enum(experimentStatuses);

export const ZParameter = z.object({
  name: z.string().trim().min(1, "parameter name is required").max(100),
  value: z.string().trim().max(500),
});

export const ZVariantInput = z.object({
  /** Present when editing an existing variant. */
  id: z.string().min(1).optional(),
  name: z.string().trim().min(1, "variant name is required").max(100, "variant name must be at most 100 characters"),
  description: z.string().trim().max(2000).default(""),
  isBaseline: z.boolean(),
  /** The workload agents run for this variant: {"workload", "settings"}, or {} for none yet. */
  config: ZVariantConfig.default({}),
});

export const ZMetricInput = z.object({
  id: z.string().min(1).optional(),
  key: ZMetricKey,
  label: z.string().trim().max(100).default(""),
  unit: ZMetricUnit,
  direction: ZMetricDirection,
  aggregation: ZMetricAggregation.default("mean"),
});

/** Issues for repeated names within a list (case-insensitive), reported on each repeat. */
function flagDuplicates(ctx: z.RefinementCtx, list: string[], field: string, what: string) {
  const seen = new Set<string>();
  list.forEach((value, index) => {
    const key = value.trim().toLowerCase();
    if (key && seen.has(key)) ctx.addIssue({ code: "custom", path: [index, field], message: `duplicate ${what} "${value.trim()}"` });
    seen.add(key);
  });
}

// Cross-row rules sit on the lists themselves, not on the whole experiment: Zod skips an
// object's refinements while any of its fields is invalid, and the form should show a
// duplicate name or a missing baseline together with an empty title, not after it is fixed.
const ZVariantList = z
  .array(ZVariantInput)
  .min(1, "add at least one variant")
  .max(50, "at most 50 variants")
  .superRefine((variants, ctx) => {
    const baselines = variants.filter((variant) => variant.isBaseline).length;
    if (baselines !== 1) {
      ctx.addIssue({ code: "custom", message: `exactly one variant must be the baseline (${baselines === 0 ? "none is" : `${baselines} are`})` });
    }
    flagDuplicates(
      ctx,
      variants.map((v) => v.name),
      "name",
      "variant name",
    );
  });

const ZMetricList = z
  .array(ZMetricInput)
  .min(1, "add at least one metric")
  .max(100, "at most 100 metrics")
  .superRefine((metrics, ctx) =>
    flagDuplicates(
      ctx,
      metrics.map((m) => m.key),
      "key",
      "metric key",
    ),
  );

const ZParameterList = z
  .array(ZParameter)
  .max(50, "at most 50 parameters")
  .default([])
  .superRefine((parameters, ctx) =>
    flagDuplicates(
      ctx,
      parameters.map((p) => p.name),
      "name",
      "parameter name",
    ),
  );

export const ZExperimentInput = z
  .object({
    title: z.string({ error: "title is required" }).trim().min(1, "title is required").max(200, "title must be at most 200 characters"),
    /** Derived from the title when left empty. */
    slug: z.union([ZSlug, z.literal("")]).optional(),
    hypothesis: z.string().trim().max(5000).default(""),
    description: z.string().trim().max(50_000).default(""),
    environmentNotes: z.string().trim().max(10_000).default(""),
    status: ZExperimentStatus.default("draft"),
    parameters: ZParameterList,
    warmupRuns: wholeNumber("warm-up runs").min(0, "warm-up runs cannot be negative").max(1_000_000),
    measuredRuns: wholeNumber("measured runs").min(1, "measured runs must be at least 1").max(1_000_000),
    alpha: z.number({ error: "alpha must be a number" }).gt(0, "alpha must be above 0").lt(1, "alpha must be below 1").default(0.05),
    // Blank and repeated tags are dropped rather than refused: they come from a comma-separated box.
    tags: z
      .array(z.string().trim().max(40, "a tag must be at most 40 characters"))
      .max(20, "at most 20 tags")
      .default([])
      .transform((tags) => [...new Set(tags.filter(Boolean))]),
    variants: ZVariantList,
    metrics: ZMetricList,
  })
  .superRefine(
    (experiment, ctx) => {
      // Run queues warm-up + measured runs of every variant with a workload in one batch.
      // A variant's config is its parsed value, or (while another field is wrong) what was sent.
      const agentRun = experiment.variants.filter((variant) => (variant.config as { workload?: unknown } | undefined)?.workload).length;
      if (agentRun === 0) return;
      const cap = maxRunsPerVariant(agentRun);
      if (experiment.warmupRuns + experiment.measuredRuns <= cap) return;
      const measuredCap = Math.max(0, cap - experiment.warmupRuns);
      ctx.addIssue({
        code: "custom",
        path: ["measuredRuns"],
        message:
          `at most ${measuredCap.toLocaleString("en-US")} measured runs per variant here (with ${experiment.warmupRuns.toLocaleString("en-US")} warm-up): ` +
          `Run queues warm-up + measured runs for each of the ${agentRun} variant${agentRun === 1 ? "" : "s"} agents run, and one batch holds at most ${MAX_BATCH_JOBS.toLocaleString("en-US")} jobs`,
      });
    },
    // Also while other fields are wrong, so the form shows every problem at once; not when the
    // counts or the variants themselves are no numbers or no list yet.
    {
      when: (payload) => {
        const value = payload.value as { warmupRuns?: unknown; measuredRuns?: unknown; variants?: unknown } | undefined;
        return (
          Number.isInteger(value?.warmupRuns) &&
          Number.isInteger(value?.measuredRuns) &&
          Array.isArray(value?.variants) &&
          value.variants.every((variant) => typeof variant === "object" && variant !== null)
        );
      },
    },
  );

export type TExperimentInput = z.output<typeof ZExperimentInput>;
export type TExperimentFormValues = z.input<typeof ZExperimentInput>;

export const ZExperimentRef = z.object({ projectSlug: ZSlug, experimentSlug: ZSlug });

export const ZCreateExperiment = z.object({ projectSlug: ZSlug, experiment: ZExperimentInput });
export const ZUpdateExperiment = ZExperimentRef.extend({ experiment: ZExperimentInput });
