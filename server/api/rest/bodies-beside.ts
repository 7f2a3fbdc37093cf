// Bodies carried beside a handler's Request and Response instead of as their web streams, for
// the HTTP server in front of Next.js (scripts/lib/fetch-bridge.ts): it reads a request's body
// whole before calling the handler, and writes the answer's bytes to the socket itself. Put into
// a Request and read back out (readBody), and taken out of a Response (arrayBuffer), each body
// went through a web stream's reader, its promises and its copies — an eighth of the server's CPU
// per upload under bench/load.ts. Anything else — Next.js, a test calling a handler — uses the
// Request's and Response's own bodies, which are always there too: an answer keeps its body, and
// a Request without one is built only by the bridge, for a handler that reads with readBody.
//
// No imports: the bridge loads this when the server starts, before any route's modules.

const requestBodies = new WeakMap<Request, Buffer>();
const answerTexts = new WeakMap<Response, string>();

/** `req`, whose body (read already; the Request itself has none) readBody takes from here. */
export function withBodyBeside(req: Request, body: Buffer): Request {
  requestBodies.set(req, body);
  return req;
}

/** The body read for `req` before its handler ran (withBodyBeside), if any. */
export const bodyBeside = (req: Request): Buffer | undefined => requestBodies.get(req);

/** A JSON answer whose text the bridge can send without reading the Response's stream. */
export function jsonAnswer(body: unknown, status: number): Response {
  const text = JSON.stringify(body);
  // As Response.json builds it: the text, and this Content-Type.
  const response = new Response(text, { status, headers: { "content-type": "application/json" } });
  answerTexts.set(response, text);
  return response;
}

/** The text of an answer jsonAnswer built, if it was one. */
export const answerTextBeside = (response: Response): string | undefined => answerTexts.get(response);
