// What the REST handlers read from a request. The body, with a size limit, refusing early
// (Content-Length) or as soon as the stream passes the limit, so a huge upload never sits in
// memory whole; its JSON; and the Idempotency-Key header.
import { AppError } from "../../errors";

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
    const { done, value } = await reader.read();
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

export function parseJson(body: Buffer): unknown {
  if (body.length === 0) throw new AppError("BAD_REQUEST", "Request body is empty: expected a JSON document");
  try {
    return JSON.parse(body.toString("utf8"));
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
  const key = req.headers.get("idempotency-key")?.trim();
  if (key === undefined || key === "") return undefined;
  if (key.length > 200 || !/^[\x21-\x7e]+$/.test(key)) {
    throw new AppError("BAD_REQUEST", "Idempotency-Key must be 1–200 visible ASCII characters", { fieldIssues: [{ path: ["Idempotency-Key"], message: "must be 1–200 visible ASCII characters" }] });
  }
  return key;
}
