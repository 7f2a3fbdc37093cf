// What the REST handlers read from a request. The body, with a size limit, refusing early
// (Content-Length) or as soon as the stream passes the limit, so a huge upload never sits in
// memory whole; its JSON; and the Idempotency-Key header.
import { AppError } from "../../core/errors";
import { ZIdempotencyHeaders } from "../../schemas/results";
import { refuseDeepJson } from "../../schemas/storable";
import { parseInput } from "../../schemas/validation";
import { decodeUtf8 } from "./text-encoding";

export async function readBody(req: Request, limitBytes: number): Promise<Buffer> {
  const tooLarge = () =>
    new AppError("PAYLOAD_TOO_LARGE", `Request body is larger than the limit of ${formatBytes(limitBytes)} (VERSUS_MAX_BODY_BYTES)`);
  const declared = Number(req.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > limitBytes) throw tooLarge();
  if (!req.body) return Buffer.alloc(0);

  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = req.body.getReader();
  for (;;) {
    const { done, value } = await reader.read().catch((error: unknown) => {
      // The client hung up mid-body (Node's "aborted", code ECONNRESET): a refusal of this
      // request, not a failure of the server's (nor, as the code alone would suggest, the database's).
      throw new AppError("BAD_REQUEST", "The request body ended before its end: the client closed the connection while sending it", { cause: error });
    });
    if (done) break;
    total += value.byteLength;
    if (total > limitBytes) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, total);
}

/** A JSON body as a value: UTF-8, no deeper than MAX_INPUT_DEPTH, well-formed JSON. */
export function parseJson(body: Buffer): unknown {
  if (body.length === 0) throw new AppError("BAD_REQUEST", "Request body is empty: expected a JSON document");
  const text = decodeUtf8(body);
  refuseDeepJson(text);
  try {
    return JSON.parse(text);
  } catch (error) {
    // JSON.parse also refuses NaN and Infinity, which JSON does not have.
    throw new AppError("BAD_REQUEST", `Malformed JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
}

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;
  if (bytes >= 1024) return `${Math.round((bytes / 1024) * 10) / 10} KB`;
  return `${bytes} B`;
}

/** The Idempotency-Key header of an upload or import, if sent: a retry with the same key replays the stored answer. */
export function idempotencyKeyOf(req: Request): string | undefined {
  const key = req.headers.get("idempotency-key")?.trim() || undefined;
  return parseInput(ZIdempotencyHeaders, { "Idempotency-Key": key })["Idempotency-Key"];
}
