// Answers served beside Next.js (direct-routes.ts) are compressed as Next.js compresses the pages
// and routes it serves: gzip when the client accepts it and the body is worth it. A CI job polling
// a comparison over a slow link gets its tens of KB as a few KB, whichever server route answers.
import type http from "node:http";
import { promisify } from "node:util";
import zlib from "node:zlib";
import Negotiator from "negotiator";

// Below this, the gzip header and the work cost more than they save (the threshold of the
// `compression` middleware Next.js uses).
const MIN_BYTES = 1024;
// Up to this the body is compressed on the request's thread: the thread pool's hand-over costs
// more than compressing a comparison's few dozen KB.
const SYNC_BYTES = 256 * 1024;
const gzip = promisify(zlib.gzip);

// Gzipped bodies of answers whose ETag is a hash of their exact body (server/api/rest/
// conditional-answer.ts: a cached comparison, read again and again), the oldest out first: the
// same bytes are not compressed again on every read.
const MAX_KEPT = 64;
const gzippedByTag = new Map<string, { plainBytes: number; body: Buffer }>();

/**
 * The body to send for `req` and the headers that go with it: gzipped (Content-Encoding) when the
 * client accepts gzip, the body is at least 1 KB and not already encoded; Vary names
 * Accept-Encoding whenever the answer depended on it.
 */
export async function encodeAnswer(req: http.IncomingMessage, headers: Headers, body: Buffer): Promise<{ body: Buffer; headers: Record<string, string> }> {
  if (body.length < MIN_BYTES || headers.has("content-encoding")) return { body, headers: {} };
  const vary = { Vary: [headers.get("vary"), "Accept-Encoding"].filter(Boolean).join(", ") };
  if (new Negotiator(req).encoding(["gzip", "identity"]) !== "gzip") return { body, headers: vary };
  const tag = headers.get("etag");
  const kept = tag ? gzippedByTag.get(tag) : undefined;
  // (The length as well: a tag that, against its promise, stood for other bytes gets them compressed.)
  if (kept && kept.plainBytes === body.length) return { body: kept.body, headers: { ...vary, "Content-Encoding": "gzip" } };
  const encoded = body.length <= SYNC_BYTES ? zlib.gzipSync(body) : await gzip(body);
  if (tag) {
    if (gzippedByTag.size >= MAX_KEPT) gzippedByTag.delete(gzippedByTag.keys().next().value as string);
    gzippedByTag.set(tag, { plainBytes: body.length, body: encoded });
  }
  return { body: encoded, headers: { ...vary, "Content-Encoding": "gzip" } };
}
