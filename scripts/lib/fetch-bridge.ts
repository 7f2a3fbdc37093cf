// Node's HTTP server speaks IncomingMessage/ServerResponse; the REST route handlers take a Fetch
// API Request and answer a Response (as Next.js calls them). These two carry a call across:
// direct-routes.ts serves the routes it takes from Next.js with them, and the CLI's integration
// tests serve their routes the same way.
import type http from "node:http";
import { answerTextBeside, withBodyBeside } from "../../server/api/rest/bodies-beside";
import { encodeAnswer } from "./gzip-answer";

/**
 * The Request of a Node request: its headers as sent, its body streamed, or `body` when the
 * caller read it already — in the Request, or, with `beside`, beside it, for a handler that reads
 * its body with readBody (server/api/rest/bodies-beside.ts). A GET or HEAD has none even when the
 * client sent one (it means nothing there, and the Fetch API refuses to build such a Request: the
 * route then answers 405, not 500).
 */
export function fetchRequestOf(req: http.IncomingMessage, url: URL, signal?: AbortSignal, body?: Buffer, { beside = false } = {}): Request {
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i] as string, req.rawHeaders[i + 1] as string);
  const method = req.method ?? "GET";
  const bodiless = method === "GET" || method === "HEAD";
  const streamed = body === undefined && !bodiless;
  const request = new Request(url, {
    method,
    headers,
    body: streamed ? bodyStreamOf(req) : bodiless || beside ? undefined : body,
    signal,
    // Node's fetch needs this for a streamed request body.
    ...(streamed ? { duplex: "half" } : {}),
  } as RequestInit);
  return beside && body !== undefined && !bodiless ? withBodyBeside(request, body) : request;
}

// How to drop what is left of each streamed request's body (see bodyStreamOf).
const discarders = new WeakMap<http.IncomingMessage, () => void>();

/**
 * A request's body as a web stream, read as the handler pulls. What the handler leaves unread —
 * it cancelled the stream (readBody, once a body passes the limit), or never read it (a body
 * refused from its Content-Length, a call refused before its body mattered) — is read and thrown
 * away, as Node does for a body nobody reads: the answer reaches the client and the connection
 * serves its next request. (Readable.toWeb destroys the request on cancel, and can then enqueue
 * into its closed stream, which throws; a body left in the socket stalls the connection until it
 * times out.)
 */
function bodyStreamOf(req: http.IncomingMessage): ReadableStream<Uint8Array> {
  let wake: (() => void) | undefined;
  const signal = () => wake?.();
  const events = ["readable", "end", "close", "error"] as const;
  for (const event of events) req.on(event, signal);
  let discarded = false;
  const discard = () => {
    // Once: removing a "readable" listener again, even one long gone, stops a resumed stream.
    if (discarded) return;
    discarded = true;
    for (const event of events) req.off(event, signal);
    if (!req.readableEnded && !req.destroyed) req.resume();
  };
  discarders.set(req, discard);
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        for (;;) {
          const chunk = req.read() as Buffer | null;
          if (chunk) return controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          if (req.readableEnded) return controller.close();
          if (req.destroyed) return controller.error(req.errored ?? new Error("the client hung up while sending the body"));
          await new Promise<void>((resolve) => (wake = resolve));
          wake = undefined;
        }
      },
      cancel: discard,
    },
    { highWaterMark: 0 },
  );
}

/**
 * The body of a request that declares a small one (Content-Length up to `limitBytes`), read
 * whole; undefined for any other, which is better streamed to the handler (its own limit then
 * refuses a huge one without holding it).
 */
export function smallBodyOf(req: http.IncomingMessage, limitBytes: number): Promise<Buffer | undefined> {
  const declared = Number(req.headers["content-length"]);
  if (req.headers["content-length"] === undefined || !Number.isSafeInteger(declared) || declared > limitBytes) return Promise.resolve(undefined);
  // Events rather than `for await`, whose promise per chunk cost more than the copy: a body of
  // 100 KB comes in a dozen chunks.
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.once("end", () => resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks)));
    req.once("error", reject);
    // A client that hangs up mid-body ends the request without "end" (and, in some Node versions, without "error").
    req.once("close", () => {
      if (!req.readableEnded) reject(new Error("the client hung up while sending the body"));
    });
  });
}

/**
 * Writes a handler's Response: `headers` first (the handler's own win), the status, and the body
 * buffered with its length (the answers these routes give are small; HEAD sends none), gzipped
 * when the client accepts it (gzip-answer.ts).
 */
export async function sendResponse(res: http.ServerResponse, response: Response, headers: readonly { key: string; value: string }[] = []): Promise<void> {
  // A JSON answer's text as its handler made it, its stream left unread (server/api/rest/bodies-beside.ts).
  const text = answerTextBeside(response);
  const bytes = text === undefined ? Buffer.from(await response.arrayBuffer()) : Buffer.from(text);
  const encoded = await encodeAnswer(res.req, response.headers, bytes);
  const body = res.req.method === "HEAD" ? Buffer.alloc(0) : encoded.body;
  for (const { key, value } of headers) res.setHeader(key, value);
  response.headers.forEach((value, key) => res.setHeader(key, value));
  // (forEach gives each Set-Cookie apart, and setHeader keeps only the last: send them all.)
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) res.setHeader("set-cookie", cookies);
  for (const [key, value] of Object.entries(encoded.headers)) res.setHeader(key, value);
  // (204 and 304 carry no Content-Length: they have no body by definition.)
  if (response.status !== 204 && response.status !== 304) res.setHeader("Content-Length", body.length);
  res.writeHead(response.status);
  res.end(body);
  // Answered: what is left of the request's body goes nowhere (bodyStreamOf).
  discarders.get(res.req)?.();
}
