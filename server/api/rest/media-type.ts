// Which media types each REST endpoint reads its body as. A body is read only as what it says it
// is: an upload sent as image/png, or JSON in another character set, is refused with 415 instead of
// being parsed as UTF-8 JSON anyway. The OpenAPI document lists the same types (the operations in
// results.openapi.ts and imports.openapi.ts).
import { MIMEType } from "node:util";
import { AppError } from "../../core/errors";

/** Bodies in JSON: POST /api/v1/results and the agent protocol's calls. */
export const jsonMediaTypes = ["application/json"] as const;

/** POST /api/v1/results: Versus's JSON format. */
export const resultsMediaTypes = jsonMediaTypes;

/**
 * POST /api/v1/imports: a tool's own output, whatever its clients call it — text (text/plain,
 * text/csv…), JSON or JSON lines, or an untyped file. Forms, multipart uploads and images are not
 * tool output.
 */
export const importMediaTypes = ["text/*", "application/json", "application/x-ndjson", "application/jsonl", "application/octet-stream"] as const;

/**
 * The request's Content-Type, checked against `accepted` ("text/*" matches any text type). Without
 * the header the body is an untyped file (application/octet-stream, as HTTP says a recipient may
 * assume). A charset other than UTF-8 is refused too: every body is decoded as UTF-8.
 */
export function requireMediaType(req: Request, accepted: readonly string[]): void {
  const header = req.headers.get("content-type");
  const expected = `send the body as ${accepted.map((pattern) => (pattern === "text/*" ? "text/plain, text/csv or another text/* type" : pattern)).join(", ")}`;
  let type: MIMEType;
  try {
    type = new MIMEType(header ?? "application/octet-stream");
  } catch {
    throw new AppError("UNSUPPORTED_MEDIA_TYPE", `Content-Type "${header}" is not a media type; ${expected}`);
  }
  const matches = accepted.some((pattern) => (pattern.endsWith("/*") ? type.type === pattern.slice(0, -2) : type.essence === pattern));
  if (!matches) {
    // curl's --data-binary labels a file as a form unless told otherwise; say how to fix it.
    const curlHint =
      type.essence === "application/x-www-form-urlencoded"
        ? ` (curl --data-binary sends a file as a form unless given -H "Content-Type: ${accepted[0] === "text/*" ? "text/plain" : accepted[0]}")`
        : "";
    throw new AppError(
      "UNSUPPORTED_MEDIA_TYPE",
      header ? `Content-Type ${type.essence} is not accepted here; ${expected}${curlHint}` : `The request has no Content-Type; ${expected}`,
    );
  }
  const charset = type.params.get("charset");
  if (charset !== null && !/^utf-?8$/i.test(charset)) {
    throw new AppError("UNSUPPORTED_MEDIA_TYPE", `charset=${charset} is not accepted: bodies are read as UTF-8 (${expected}; charset=utf-8 or none)`);
  }
}
