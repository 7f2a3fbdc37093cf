// The CI gate and the status badge in the OpenAPI document, from the same Zod schemas the
// handlers validate with (server/schemas/check.ts).
import { z } from "zod";
import type { ZodOpenApiPathsObject } from "zod-openapi";
import { ZBadgePath, ZBadgeQuery, ZCheckQuery, ZCheckResult } from "../schemas/check";
import { ZExperimentPath } from "../schemas/comparison";
// A cycle with openapi.ts, harmless: regressionPaths() runs only once both modules have loaded.
import { errorResponses } from "./openapi";

export function regressionPaths(): ZodOpenApiPathsObject {
  return {
    "/api/v1/experiments/{slugOrId}/check": {
      get: {
        tags: ["History"],
        summary: "CI gate: a commit's runs against the commits before it on a branch",
        description:
          "The baseline is the runs of the `window` commits before `commit` on `branch` (ordered by each commit's first run), the candidate the commit's own runs (on any branch, so a pull request's commit can be checked against main). Per variant and metric: the comparison the experiment page computes (Mann-Whitney U on per-run values, change with a Hodges–Lehmann CI, direction-aware verdict); a metric is `worse` or `better` only when its change is significant AND at least `minChange` % either way (default 2), else `no_change` (`belowMinChange` marks a significant change under the threshold). `verdict` is `regression` when any metric got worse, else `improvement` when any got better. `markdown` is the summary with the experiment report's tables, for a pull-request comment. `npx versus check` calls this and exits 1 on a regression.",
        requestParams: { path: ZExperimentPath, query: ZCheckQuery },
        responses: {
          "200": { description: "The verdict per metric and the Markdown summary", content: { "application/json": { schema: ZCheckResult } } },
          ...errorResponses({
            "400": "A bad slugOrId, commit, branch, window, variant or minChange (details.fields names it)",
            "401": "Missing, unknown or revoked API key (with WWW-Authenticate)",
            "404": "No such experiment in the key's project, or no runs of the commit",
            "422": "The commit prefix matches several commits, or the variant is not the experiment's",
            "500": "Internal error; the server log has the details",
          }),
        },
      },
    },
    "/api/v1/experiments/{slugOrId}/badge/{metric}": {
      get: {
        tags: ["History"],
        summary: "Status badge (SVG) of a metric: its latest commit's median and verdict",
        description:
          "The path's last segment is the metric key followed by `.svg`. The badge shows the median of the latest commit's runs on the branch and the CI gate's verdict against the commits before it (red: worse, green: better, blue: no change, grey: not enough data). Authenticate with the project API key, or — for a README, which cannot send one — with `?share=<token>` of a live share link of this experiment (snapshot links freeze results and do not open badges). Cached for 5 minutes when shared.",
        security: [{ apiKey: [] }, {}],
        requestParams: { path: ZExperimentPath.extend(ZBadgePath.shape), query: ZBadgeQuery },
        responses: {
          "200": { description: "The badge", content: { "image/svg+xml": { schema: z.string() } } },
          ...errorResponses({
            "400": "A bad slugOrId, metric file name, branch, window, minChange or variant (details.fields names it)",
            "401": "No share token and a missing, unknown or revoked API key",
            "404": "No such experiment or metric, or a share token that does not open this experiment",
            "422": "The variant is not the experiment's",
            "500": "Internal error; the server log has the details",
          }),
        },
      },
    },
  };
}
