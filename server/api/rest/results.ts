// POST /api/v1/results — runs in Versus's own JSON format.
import { checkedUpload } from "../../runs/checked-upload";
import { ingestResults } from "../../runs/ingest-results";
import { atWork } from "../../runs/ingest-turns";
import { idempotencyKeyOf, sha256Hex } from "./body";
import { json, type RestContext } from "./handler";
import { parseLiftingSamples } from "./lifted-samples";
import { requireMediaType, resultsMediaTypes } from "./media-type";

export async function postResults(ctx: RestContext): Promise<Response> {
  requireMediaType(ctx.req, resultsMediaTypes);
  const idempotencyKey = idempotencyKeyOf(ctx.req);
  const { bytes } = await ctx.body();
  // A few uploads at work at once, so reads are not queued behind every uploader (ingest-turns.ts).
  const result = await atWork(() => {
    // Large sample arrays are read into typed arrays, not parsed as JSON values (lifted-samples.ts);
    // the others become typed arrays before the schema's check (checked-upload.ts).
    const { value, lifted } = parseLiftingSamples(bytes);
    return ingestResults(ctx.db, checkedUpload(value, lifted), {
      projectId: ctx.principal.projectId,
      projectSlug: ctx.principal.projectSlug,
      source: "upload",
      idempotencyKey,
      // Only a key's record keeps it: hashing a million samples' body took 5-10 ms for nothing.
      bodySha256: idempotencyKey ? sha256Hex(bytes) : "",
      baseUrl: ctx.baseUrl,
    });
  });
  return json(result, result.replayed ? 200 : 201);
}
