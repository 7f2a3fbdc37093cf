// Next.js builds a Fetch API Request for every route it serves, and the Fetch API refuses to
// represent TRACE, TRACK and CONNECT, so Next.js answers those with a bare 500 (and any other
// method outside the seven it routes with a bare 400). The HTTP server in front of Next.js
// (scripts/serve.ts) answers them itself, as a route answers a method it does not implement
// (server/api/route-methods.ts): 405, the API's error body, the route's own Allow header, and the
// headers every API answer gets (next.config.js).
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import { apiAnswerHeaders } from "../../next.config.js";
import { methodNotAllowed, routeMethodNames } from "../../server/api/route-methods";

type NodeHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void> | void;

/** What a route answers when it has no OPTIONS of its own to say (a page): GET and HEAD. */
const PAGE_METHODS = "GET, HEAD";

/**
 * `handle` for the methods Next.js routes; 405 for every other one, with the Allow header that
 * `allowOf` finds for the request's path (null or a failure: a page's GET, HEAD).
 */
export function guardMethods(handle: NodeHandler, allowOf: (req: IncomingMessage) => Promise<string | null>): NodeHandler {
  return async (req, res) => {
    if ((routeMethodNames as readonly string[]).includes(req.method ?? "")) return handle(req, res);
    req.resume(); // whatever body came with it is not read
    const allow = (await allowOf(req).catch(() => null)) ?? PAGE_METHODS;
    await send(methodNotAllowed(req.method ?? "?", allow), res);
  };
}

/** CONNECT arrives as its own event, on the raw socket; without this Node.js just hangs up. */
export function refuseConnect(req: IncomingMessage, socket: Duplex): void {
  void methodNotAllowed(req.method ?? "CONNECT", PAGE_METHODS)
    .text()
    .then((body) => {
      const headers = [
        ...apiAnswerHeaders.map(({ key, value }) => `${key}: ${value}`),
        `Allow: ${PAGE_METHODS}`,
        "Content-Type: application/json",
        `Content-Length: ${Buffer.byteLength(body)}`,
        "Connection: close",
      ];
      socket.end(`HTTP/1.1 405 Method Not Allowed\r\n${headers.join("\r\n")}\r\n\r\n${body}`);
    });
}

async function send(response: Response, res: ServerResponse): Promise<void> {
  const body = await response.text();
  for (const { key, value } of apiAnswerHeaders) res.setHeader(key, value);
  res.writeHead(response.status, { ...Object.fromEntries(response.headers), "content-length": Buffer.byteLength(body) });
  res.end(body);
}
