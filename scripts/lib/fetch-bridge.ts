// Node's HTTP server speaks IncomingMessage/ServerResponse; the REST route handlers take a Fetch
// API Request and answer a Response (as Next.js calls them). These two carry a call across:
// direct-routes.ts serves the agent routes with them, and the CLI's integration tests serve
// their routes the same way.
import type http from "node:http";
import { Readable } from "node:stream";

/**
 * The Request of a Node request: its headers as sent, its body streamed, or `body` when the
 * caller read it already. A GET or HEAD has none even when the client sent one (it means nothing
 * there, and the Fetch API refuses to build such a Request: the route then answers 405, not 500).
 */
export function fetchRequestOf(req: http.IncomingMessage, url: URL, signal?: AbortSignal, body?: Buffer): Request {
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i] as string, req.rawHeaders[i + 1] as string);
  const method = req.method ?? "GET";
  const bodiless = method === "GET" || method === "HEAD";
  const streamed = body === undefined && !bodiless;
  return new Request(url, {
    method,
    headers,
    body: streamed ? (Readable.toWeb(req) as ReadableStream<Uint8Array>) : bodiless ? undefined : body,
    signal,
    // Node's fetch needs this for a streamed request body.
    ...(streamed ? { duplex: "half" } : {}),
  } as RequestInit);
}

/**
 * The body of a request that declares a small one (Content-Length up to `limitBytes`), read
 * whole; undefined for any other, which is better streamed to the handler (its own limit then
 * refuses a huge one without holding it).
 */
export async function smallBodyOf(req: http.IncomingMessage, limitBytes: number): Promise<Buffer | undefined> {
  const declared = Number(req.headers["content-length"]);
  if (req.headers["content-length"] === undefined || !Number.isSafeInteger(declared) || declared > limitBytes) return undefined;
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * Writes a handler's Response: `headers` first (the handler's own win), the status, and the body
 * buffered with its length (the answers these routes give are small; HEAD sends none).
 */
export async function sendResponse(res: http.ServerResponse, response: Response, headers: readonly { key: string; value: string }[] = []): Promise<void> {
  const body = res.req.method === "HEAD" ? Buffer.alloc(0) : Buffer.from(await response.arrayBuffer());
  for (const { key, value } of headers) res.setHeader(key, value);
  response.headers.forEach((value, key) => res.setHeader(key, value));
  // (204 and 304 carry no Content-Length: they have no body by definition.)
  if (response.status !== 204 && response.status !== 304) res.setHeader("Content-Length", body.length);
  res.writeHead(response.status);
  res.end(body);
}
