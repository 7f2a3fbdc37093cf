// GET /api/v1/experiments/{slugOrId}/comparison?baseline=<variant>
import { ZComparisonQuery, ZExperimentPath } from "../../schemas/comparison";
import { parseInput } from "../../schemas/validation";
import { getComparison } from "../../comparison/comparison";
import type { RestContext } from "./handler";
import { conditionalJson } from "./conditional-answer";

export async function getExperimentComparison(ctx: RestContext, slugOrId: string): Promise<Response> {
  const path = parseInput(ZExperimentPath, { slugOrId });
  const query = parseInput(ZComparisonQuery, Object.fromEntries(ctx.url.searchParams));
  return conditionalJson(ctx.req, await getComparison(ctx.db, { projectId: ctx.principal.projectId }, path.slugOrId, query.baseline));
}
