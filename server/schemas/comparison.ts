// The comparison of an experiment's variants: tRPC, REST and OpenAPI share this shape.
import { z } from "zod";
import { ZMetricComparison } from "../stats/schemas";
import { ZSlug } from "./common";

/** The path of /api/v1/experiments/{slugOrId}/…: an experiment's slug or its id. */
export const ZExperimentPath = z.object({
  slugOrId: z
    .string()
    .trim()
    .min(1, "give the experiment's slug or id")
    .max(64, "an experiment slug or id is at most 64 characters")
    .meta({ description: "experiment slug or id" }),
});

export const ZComparisonQuery = z.object({
  /** Variant to compare against; the experiment's baseline when omitted. */
  baseline: z.string().trim().min(1).max(100).optional(),
});

export const ZComparisonRef = z.object({ projectSlug: ZSlug, experimentSlug: ZSlug }).extend(ZComparisonQuery.shape);

/** Per candidate: the smallest change its comparison could see on the agents that ran its runs. */
export const ZCandidateNoiseFloor = z
  .object({
    candidate: z.string(),
    mdePercent: z
      .number()
      .nullable()
      .describe(
        "the smallest change (± % of the median) the U test finds at the experiment's α with 80 % power with these run counts, on the noisiest of `agents` (their latest A/A batch); null when the runs are too few to find any",
      ),
    runs: z.object({ baseline: z.number().int(), candidate: z.number().int() }).describe("the runs compared on each side"),
    agents: z.array(z.string()).describe("the agents that ran the compared runs and have a noise floor"),
    unmeasured: z
      .array(z.string())
      .describe("agents that ran some of the compared runs but have no noise floor of this metric, and `uploads` when some runs were uploaded"),
    belowFloor: z.boolean().describe("no significant change, and the change is smaller than the MDE: too small to tell from noise here, rather than no change"),
    measuredAt: z.iso.datetime().describe("when the A/A batch ran"),
    batchId: z.string().describe("the A/A batch"),
  })
  .meta({ id: "CandidateNoiseFloor" });
export type TCandidateNoiseFloor = z.output<typeof ZCandidateNoiseFloor>;

export const ZComparison = z
  .object({
    experiment: z.object({ slug: z.string(), title: z.string(), alpha: z.number() }),
    baseline: z.string(),
    variants: z.array(z.object({ name: z.string(), isBaseline: z.boolean(), runs: z.number().int() })),
    metrics: z.array(
      z.object({
        key: z.string(),
        label: z.string(),
        unit: z.string(),
        direction: z.enum(["lower_is_better", "higher_is_better"]),
        aggregation: z.string().describe("how each run is reduced to the one value compared across runs"),
        probe: z
          .string()
          .nullable()
          .optional()
          .describe(
            "the probe of the experiment's variants that reports this metric (its key is `<probe>.<suffix>`): a figure of the system under test; null or absent for the client side's own metrics, which come first",
          ),
        comparison: ZMetricComparison.nullable().describe(
          "every variant with runs of this metric: its own figures (n, median with CI, mean ± sd, min/max, merged percentiles), and each candidate tested against the baseline. comparisons is empty when there is nothing to test (one variant has runs, or the baseline has none); null only when no variant has runs with this metric",
        ),
        /** Why candidates are not tested against the baseline; null when they are. */
        reason: z
          .string()
          .nullable()
          .describe("why no candidate is tested against the baseline (e.g. no other variant has runs with this metric); null when they are"),
        noiseFloor: z
          .array(ZCandidateNoiseFloor)
          .optional()
          .describe(
            "agent-run comparisons, once the experiment's noise was measured (an A/A batch): per candidate, the minimum detectable effect on the agents that ran its runs; absent or [] otherwise",
          ),
      }),
    ),
  })
  .meta({ id: "Comparison" });

export type TComparison = z.output<typeof ZComparison>;
