// POST /api/v1/imports?format=…&experiment=…[&variant=…][&split=variant|metric][&create=true][&commit=…&branch=…&commitMessage=…&commitTime=…]
// The body is a benchmark tool's raw output; runs/ingest-import.ts checks, parses and stores it.
import { AppError } from "../../core/errors";
import { ZImportQuery } from "../../schemas/imports";
import { parseInput } from "../../schemas/validation";
import { ingestImport } from "../../runs/ingest-import";
import { atWork } from "../../runs/ingest-turns";
import { decodeUtf8, idempotencyKeyOf, sha256Hex } from "./body";
import { json, type RestContext } from "./handler";
import { importMediaTypes, requireMediaType } from "./media-type";

export async function postImport(ctx: RestContext): Promise<Response> {
  const query = parseInput(ZImportQuery, Object.fromEntries(ctx.url.searchParams));
  requireMediaType(ctx.req, importMediaTypes);
  const idempotencyKey = idempotencyKeyOf(ctx.req);
  const { bytes } = await ctx.body();
  if (bytes.length === 0) throw new AppError("BAD_REQUEST", `Request body is empty: send the ${query.format} output as the body`);
  // A few uploads at work at once, so reads are not queued behind every uploader (ingest-turns.ts).
  const result = await atWork(() =>
    ingestImport(ctx.db, decodeUtf8(bytes), query, {
      projectId: ctx.principal.projectId,
      projectSlug: ctx.principal.projectSlug,
      idempotencyKey,
      // Same body into another experiment or variant is a different request. Only a key's record keeps it.
      bodySha256: idempotencyKey ? `${sha256Hex(bytes)}:${ctx.url.search}`.slice(0, 200) : "",
      baseUrl: ctx.baseUrl,
    }),
  );
  return json(result, result.replayed ? 200 : 201);
}
