// GET /api/v1/experiments/{slugOrId}/badge/{metric} in the OpenAPI document (../openapi.ts collects
// it); the handler is badge.ts.
import { z } from "zod";
import type { ZodOpenApiOperationObject } from "zod-openapi";
import { ZBadgePath, ZBadgeQuery } from "../../schemas/check";
import { ZExperimentPath } from "../../schemas/comparison";
import { errorResponses, keyedErrors } from "./openapi-parts";

export const getBadgeOperation: ZodOpenApiOperationObject = {
  tags: ["History"],
  summary: "Status badge (SVG) of a metric: its latest commit's median and verdict",
  description: [
    "The path's last segment is the metric key followed by `.svg`.",
    "The badge shows the median of the latest commit's runs on the branch and the CI gate's verdict against the commits before it (red:",
    "worse, green: better, blue: no change, grey: not enough data).",
    "Authenticate with the project API key, or — for a README, which cannot send one — with `?share=<token>` of a live share link of",
    "this experiment (snapshot links freeze results and do not open badges).",
    "Cached for 5 minutes when shared.",
  ].join(" "),
  security: [{ apiKey: [] }, {}],
  requestParams: { path: ZExperimentPath.extend(ZBadgePath.shape), query: ZBadgeQuery },
  responses: {
    "200": { description: "The badge", content: { "image/svg+xml": { schema: z.string() } } },
    ...errorResponses({
      "400": "A bad slugOrId, metric file name, branch, window, minChange or variant (details.fields names it)",
      "401": "No share token and a missing, unknown or revoked API key",
      "404": "No such experiment or metric, or a share token that does not open this experiment",
      "422": "The variant is not the experiment's",
      "500": keyedErrors["500"],
    }),
  },
};
