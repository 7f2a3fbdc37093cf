// GET /api/v1/experiments/{slugOrId}/check, the CI gate, in the OpenAPI document (../openapi.ts
// collects it); the handler is check.ts.
import type { ZodOpenApiOperationObject } from "zod-openapi";
import { ZCheckQuery, ZCheckResult } from "../../schemas/check";
import { ZExperimentPath } from "../../schemas/comparison";
import { errorResponses, keyedErrors } from "./openapi-parts";

export const getCheckOperation: ZodOpenApiOperationObject = {
  tags: ["History"],
  summary: "CI gate: a commit's runs against the commits before it on a branch",
  description: [
    "The baseline is the runs of the `window` commits before `commit` on `branch` (ordered by each commit's first run), the candidate",
    "the commit's own runs (on any branch, so a pull request's commit can be checked against main).",
    "Per variant and metric: the comparison the experiment page computes (Mann-Whitney U on per-run values, change with a",
    "Hodges–Lehmann CI, direction-aware verdict); a metric is `worse` or `better` only when its change is significant AND at least",
    "`minChange` % either way (default 2), else `no_change` (`belowMinChange` marks a significant change under the threshold).",
    "`verdict` is `regression` when any metric got worse, else `improvement` when any got better.",
    "`markdown` is the summary with the experiment report's tables, for a pull-request comment.",
    "`npx versus check` calls this and exits 1 on a regression.",
  ].join(" "),
  requestParams: { path: ZExperimentPath, query: ZCheckQuery },
  responses: {
    "200": { description: "The verdict per metric and the Markdown summary", content: { "application/json": { schema: ZCheckResult } } },
    ...errorResponses({
      "400": "A bad slugOrId, commit, branch, window, variant or minChange (details.fields names it)",
      "404": "No such experiment in the key's project, or no runs of the commit",
      "422": "The commit prefix matches several commits, or the variant is not the experiment's",
      ...keyedErrors,
    }),
  },
};
