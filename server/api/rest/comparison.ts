// GET /api/v1/experiments/{slugOrId}/comparison?baseline=<variant>
import { ZComparisonQuery, ZExperimentPath } from "../../schemas/comparison";
import { parseInput } from "../../schemas/validation";
import { getComparison } from "../../comparison/comparison";
import { json, type RestContext } from "./handler";

export async function getExperimentComparison(ctx: RestContext, slugOrId: string): Promise<Response> {
  const path = parseInput(ZExperimentPath, { slugOrId });
  const query = parseInput(ZComparisonQuery, Object.fromEntries(ctx.url.searchParams));
  return json(await getComparison(ctx.db, { projectId: ctx.principal.projectId }, path.slugOrId, query.baseline));
}
