// GET /api/v1/experiments/{slugOrId}/check?commit=&branch=[&window=][&variant=][&minChange=] — the CI gate.
import { ZExperimentPath } from "../../schemas/comparison";
import { ZCheckQuery } from "../../schemas/check";
import { parseInput } from "../../schemas/validation";
import { checkCommit } from "../../regressions/check";
import { json, type RestContext } from "./handler";

export async function getExperimentCheck(ctx: RestContext, slugOrId: string): Promise<Response> {
  const path = parseInput(ZExperimentPath, { slugOrId });
  const query = parseInput(ZCheckQuery, Object.fromEntries(ctx.url.searchParams));
  const scope = { projectId: ctx.principal.projectId, projectSlug: ctx.principal.projectSlug, baseUrl: ctx.baseUrl };
  return json(await checkCommit(ctx.db, scope, path.slugOrId, query));
}
