// GET /api/v1/experiments/{slugOrId}/comparison in the OpenAPI document (../openapi.ts collects it);
// the handler is comparison.ts.
import { z } from "zod";
import type { ZodOpenApiOperationObject } from "zod-openapi";
import { ZComparison, ZComparisonQuery, ZExperimentPath } from "../../schemas/comparison";
import { errorResponses, keyedErrors } from "./openapi-parts";

export const getComparisonOperation: ZodOpenApiOperationObject = {
  summary: "Before/after comparison of an experiment's variants",
  description: [
    "Per metric, every variant with runs, always — also with one variant, or when no other variant has the metric: runs, median with a",
    "distribution-free 95% CI, mean ± sample sd, CV, min/max of the runs, percentiles merged from their histograms.",
    "Per candidate against the baseline: change as ratio and percent with a Hodges–Lehmann CI, two-sided Mann-Whitney U (Holm-adjusted",
    "across candidates), Welch's t-test, and a direction-aware verdict (better, worse, no_change, insufficient_data with the reason);",
    "when there is no candidate to test, `comparisons` is empty and the metric's `reason` says why.",
    "The answer carries an ETag: a poller that sends it back in If-None-Match gets 304 without a body until runs or settings change.",
  ].join(" "),
  requestParams: {
    path: ZExperimentPath,
    query: ZComparisonQuery,
    header: z.object({
      "if-none-match": z.string().max(8192).optional().meta({ description: "The ETag of an earlier answer: 304 while the comparison is still that one" }),
    }),
  },
  responses: {
    "200": {
      description: "The comparison",
      headers: z.object({ etag: z.string().meta({ description: 'Weak tag of this answer\'s exact JSON (W/"…")' }) }),
      content: { "application/json": { schema: ZComparison } },
    },
    "304": { description: "Not modified: the If-None-Match tag is the current answer's", headers: z.object({ etag: z.string() }) },
    ...errorResponses({
      "400": "A bad slugOrId or baseline (details.fields names it)",
      "404": "No such experiment in the key's project",
      "422": "The baseline is not a variant of the experiment",
      ...keyedErrors,
    }),
  },
};
