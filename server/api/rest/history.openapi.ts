// GET /api/v1/experiments/{slugOrId}/history in the OpenAPI document (../openapi.ts collects it);
// the handler is history.ts.
import type { ZodOpenApiOperationObject } from "zod-openapi";
import { ZExperimentPath } from "../../schemas/comparison";
import { ZHistory, ZHistoryQuery } from "../../schemas/history";
import { errorResponses, keyedErrors } from "./openapi-parts";

export const getHistoryOperation: ZodOpenApiOperationObject = {
  summary: "A metric's history over commits, with its change points",
  description: [
    "One point per git commit of the variant's runs (on one branch, or all): the median of the commit's run values (each run reduced by",
    "the metric's aggregation) with its distribution-free 95% CI and every run's value, ordered by commit time (gitCommitTime, else the",
    "commit's first run).",
    "A window (from, to) longer than maxPoints commits is thinned keeping each slice's lowest and highest median and both commits",
    "around each change point.",
    "Change points: E-Divisive means over the commit medians (permutation test, p ≤ 0.01), with the commit range, the change in % with",
    "a 95% Hodges–Lehmann interval, a direction-aware verdict and the review status.",
  ].join(" "),
  requestParams: { path: ZExperimentPath, query: ZHistoryQuery },
  responses: {
    "200": { description: "The history", content: { "application/json": { schema: ZHistory } } },
    ...errorResponses({
      "400": "A bad slugOrId, from, to or maxPoints (details.fields names it)",
      "404": "No such experiment in the key's project, or no such metric or variant in it (details.fields names metric or variant)",
      ...keyedErrors,
    }),
  },
};
