// What the REST handlers read from a request. The body, with a size limit, refusing early
// (Content-Length) or as soon as the stream passes the limit, so a huge upload never sits in
// memory whole; its text; its JSON; and the Idempotency-Key header.
//
// Request bodies are UTF-8. One that is not is refused with the byte offset of the first bad
// sequence, instead of being stored with U+FFFD replacement characters where the bytes were.
import crypto from "node:crypto";
import { AppError } from "../../core/errors";
import { bodyBeside } from "./bodies-beside";
import { ZIdempotencyHeaders } from "../../schemas/results";
import { refuseDeepJson } from "../../schemas/storable";
import { parseInput } from "../../schemas/validation";

export async function readBody(req: Request, limitBytes: number): Promise<Buffer> {
  const tooLarge = () => new AppError("PAYLOAD_TOO_LARGE", `Request body is larger than the limit of ${formatBytes(limitBytes)} (VERSUS_MAX_BODY_BYTES)`);
  const declared = Number(req.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > limitBytes) throw tooLarge();
  // Read already by the server in front (./bodies-beside.ts).
  const beside = bodyBeside(req);
  if (beside) {
    if (beside.length > limitBytes) throw tooLarge();
    return beside;
  }
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

/** The body as text (a leading byte order mark dropped), or a 400 naming where it stops being UTF-8. */
export function decodeUtf8(bytes: Uint8Array): string {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    const offset = invalidUtf8Offset(bytes);
    throw new AppError("BAD_REQUEST", `The body is not valid UTF-8: the bad byte sequence starts at byte offset ${offset} (0x${hex(bytes, offset)})`);
  }
}

/**
 * Where the first invalid sequence starts. The decoder says only that there is one, so find the
 * shortest prefix it refuses (a streaming decode refuses a prefix once a sequence in it is
 * definitely broken, and every longer prefix too), then step back to the lead byte of the sequence
 * that byte broke.
 */
export function invalidUtf8Offset(bytes: Uint8Array): number {
  const refuses = (length: number) => {
    try {
      new TextDecoder("utf-8", { fatal: true }).decode(bytes.subarray(0, length), { stream: length < bytes.length });
      return false;
    } catch {
      return true;
    }
  };
  let low = 0; // a prefix the decoder accepts
  let high = bytes.length; // one it refuses
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if (refuses(middle)) high = middle;
    else low = middle;
  }
  const failedAt = high - 1;
  // The bytes before the failing one may be the unfinished start of the sequence it broke.
  let lead = failedAt - 1;
  while (lead >= 0 && failedAt - lead < 4 && isContinuation(bytes[lead]!)) lead--;
  if (lead >= 0 && lead < failedAt && sequenceLength(bytes[lead]!) > failedAt - lead) return lead;
  return failedAt;
}

const isContinuation = (byte: number) => (byte & 0xc0) === 0x80;

/** How many bytes a sequence with this lead byte has (0: not a lead byte). */
function sequenceLength(byte: number): number {
  if (byte >= 0xc2 && byte <= 0xdf) return 2;
  if (byte >= 0xe0 && byte <= 0xef) return 3;
  if (byte >= 0xf0 && byte <= 0xf4) return 4;
  return 0;
}

function hex(bytes: Uint8Array, from: number): string {
  return Array.from(bytes.subarray(from, from + 4), (byte) => byte.toString(16).toUpperCase().padStart(2, "0")).join(" ");
}

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;
  if (bytes >= 1024) return `${Math.round((bytes / 1024) * 10) / 10} KB`;
  return `${bytes} B`;
}

/** The body's SHA-256 (hex): what a retry with the same Idempotency-Key must match. */
export const sha256Hex = (bytes: Buffer) => crypto.createHash("sha256").update(bytes).digest("hex");

/** The Idempotency-Key header of an upload or import, if sent: a retry with the same key replays the stored answer. */
export function idempotencyKeyOf(req: Request): string | undefined {
  const key = req.headers.get("idempotency-key")?.trim() || undefined;
  return parseInput(ZIdempotencyHeaders, { "Idempotency-Key": key })["Idempotency-Key"];
}
