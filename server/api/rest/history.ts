// GET /api/v1/experiments/{slugOrId}/history?metric=&variant=&branch=&from=&to=&maxPoints=
import { ZExperimentPath } from "../../schemas/comparison";
import { ZHistoryQuery } from "../../schemas/history";
import { parseInput } from "../../schemas/validation";
import { getHistory } from "../../history/history";
import { json, type RestContext } from "./handler";

export async function getExperimentHistory(ctx: RestContext, slugOrId: string): Promise<Response> {
  const path = parseInput(ZExperimentPath, { slugOrId });
  const query = parseInput(ZHistoryQuery, Object.fromEntries(ctx.url.searchParams));
  return json(await getHistory(ctx.db, ctx.principal.projectId, path.slugOrId, query));
}
