// POST /api/v1/imports?format=…&experiment=…[&variant=…][&split=variant|metric][&create=true][&commit=…&branch=…&commitMessage=…&commitTime=…]
// The body is a benchmark tool's raw output.
import { AppError } from "../../core/errors";
import { importers } from "../../importers";
import { lineAndColumn } from "../../importers/body-checks";
import { importToUpload } from "../../importers/to-upload";
import { ImportFormatError } from "../../importers/types";
import { ZImportQuery } from "../../schemas/imports";
import { ZResultsUpload } from "../../schemas/results";
import { parseInput } from "../../schemas/validation";
import { ingestResults } from "../../runs/ingest-results";
import { decodeUtf8, idempotencyKeyOf, refuseDeepJson } from "./body";
import { json, type RestContext } from "./handler";
import { importMediaTypes, requireMediaType } from "./media-type";

export async function postImport(ctx: RestContext): Promise<Response> {
  const query = parseInput(ZImportQuery, Object.fromEntries(ctx.url.searchParams));
  requireMediaType(ctx.req, importMediaTypes);
  const idempotencyKey = idempotencyKeyOf(ctx.req);
  const { bytes, sha256 } = await ctx.body();
  if (bytes.length === 0) throw new AppError("BAD_REQUEST", `Request body is empty: send the ${query.format} output as the body`);
  const text = decodeUtf8(bytes);
  // No tool prints U+0000, and no text column can hold it: a binary file, refused before parsing
  // (a parser might skip the line, or carry the character into a name).
  const nul = text.indexOf("\u0000");
  if (nul >= 0) throw new AppError("BAD_REQUEST", `The body contains a NUL character (U+0000) at ${lineAndColumn(text, nul)}: a binary file, not ${query.format} output`);
  // JSON output (JMH, k6, hyperfine…) is held to the same nesting limit as a JSON upload.
  if (/^\s*[[{]/.test(text)) refuseDeepJson(text);

  let parsed;
  try {
    parsed = importers[query.format](text);
  } catch (error) {
    if (error instanceof ImportFormatError) throw new AppError("UNPROCESSABLE", error.message, { cause: error });
    throw error;
  }
  // The importer's output goes through the same schema as a hand-written upload.
  const mapped = importToUpload(parsed, { experiment: query.experiment, variant: query.variant, split: query.split, create: query.create });
  const commit = {
    ...(query.commit ? { gitCommit: query.commit } : {}),
    ...(query.branch ? { gitBranch: query.branch } : {}),
    ...(query.commitMessage ? { gitCommitMessage: query.commitMessage } : {}),
    ...(query.commitTime ? { gitCommitTime: query.commitTime } : {}),
  };
  const upload = parseInput(ZResultsUpload, { ...mapped, runs: mapped.runs.map((run) => ({ ...run, ...commit })) });
  const result = await ingestResults(ctx.db, upload, {
    projectId: ctx.principal.projectId,
    projectSlug: ctx.principal.projectSlug,
    source: "import",
    sourceDetail: query.format,
    idempotencyKey,
    // Same body into another experiment or variant is a different request.
    bodySha256: `${sha256}:${ctx.url.search}`.slice(0, 200),
    baseUrl: ctx.baseUrl,
  });
  return json(result, result.replayed ? 200 : 201);
}
