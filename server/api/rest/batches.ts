// POST /api/v1/experiments/{slugOrId}/batches, GET /api/v1/batches/{id}[?wait=&seen=&minChange=],
// POST /api/v1/batches/{id}/cancel — start, watch and cancel a batch from CI (`versus run`).
// Starting and cancelling need a key that may start runs; any key of the project may watch.
import { cancelBatch, startBatch } from "../../agents/batches";
import { watchBatch } from "../../regressions/batch-status";
import { AppError } from "../../core/errors";
import type { ApiKeyPrincipal } from "../../projects/api-keys";
import { experimentForCheck } from "../../regressions/check";
import { ZBatchPath, ZBatchWaitQuery, ZStartBatchRequest } from "../../schemas/batch-runs";
import { ZExperimentPath } from "../../schemas/comparison";
import { parseInput } from "../../schemas/validation";
import { parseJson } from "./body";
import { json, type RestContext } from "./handler";
import { jsonMediaTypes, requireMediaType } from "./media-type";

function requireRunScope(principal: ApiKeyPrincipal) {
  if (principal.scope !== "run") {
    throw new AppError(
      "FORBIDDEN",
      `API key "${principal.keyName}" may upload results and read comparisons but not start runs: create a key that may start runs on the project's API keys page`,
    );
  }
}

const scopeOf = (ctx: RestContext) => ({ projectId: ctx.principal.projectId, projectSlug: ctx.principal.projectSlug, baseUrl: ctx.baseUrl });

export async function postBatch(ctx: RestContext, slugOrId: string): Promise<Response> {
  requireRunScope(ctx.principal);
  const path = parseInput(ZExperimentPath, { slugOrId });
  const { bytes } = await ctx.body();
  // No body starts every variant with the experiment's own settings.
  if (bytes.length) requireMediaType(ctx.req, jsonMediaTypes);
  const input = parseInput(ZStartBatchRequest, bytes.length ? parseJson(bytes) : {});
  const experiment = await experimentForCheck(ctx.db, ctx.principal.projectId, path.slugOrId);
  const started = await startBatch(
    ctx.db,
    ctx.principal.projectId,
    null,
    { experimentSlug: experiment.slug, ...input },
    { apiKeyId: ctx.principal.keyId, requireOnlineAgent: true },
  );
  return json(await watchBatch(ctx.db, scopeOf(ctx), started.id, parseInput(ZBatchWaitQuery, {})), 201);
}

export async function getBatch(ctx: RestContext, id: string): Promise<Response> {
  const path = parseInput(ZBatchPath, { id });
  const query = parseInput(ZBatchWaitQuery, Object.fromEntries(ctx.url.searchParams));
  return json(await watchBatch(ctx.db, scopeOf(ctx), path.id, query, ctx.req.signal));
}

export async function postCancelBatch(ctx: RestContext, id: string): Promise<Response> {
  requireRunScope(ctx.principal);
  const path = parseInput(ZBatchPath, { id });
  return json(await cancelBatch(ctx.db, ctx.principal.projectId, path.id));
}
