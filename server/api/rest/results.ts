// POST /api/v1/results — runs in Versus's own JSON format.
import { parseInput } from "../../schemas/validation";
import { ZResultsUpload } from "../../schemas/results";
import { ingestResults } from "../../runs/ingest-results";
import { atWork } from "../../runs/ingest-turns";
import { idempotencyKeyOf, parseJson } from "./body";
import { json, type RestContext } from "./handler";
import { requireMediaType, resultsMediaTypes } from "./media-type";

export async function postResults(ctx: RestContext): Promise<Response> {
  requireMediaType(ctx.req, resultsMediaTypes);
  const idempotencyKey = idempotencyKeyOf(ctx.req);
  const { bytes, sha256 } = await ctx.body();
  // A few uploads at work at once, so reads are not queued behind every uploader (ingest-turns.ts).
  const result = await atWork(() =>
    ingestResults(ctx.db, parseInput(ZResultsUpload, parseJson(bytes)), {
      projectId: ctx.principal.projectId,
      projectSlug: ctx.principal.projectSlug,
      source: "upload",
      idempotencyKey,
      bodySha256: sha256,
      baseUrl: ctx.baseUrl,
    }),
  );
  return json(result, result.replayed ? 200 : 201);
}
