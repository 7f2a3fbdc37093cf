// Pages while the database is away. Next.js answers a page whose render failed with 500 and its
// generic error page, and cannot give a page any other 5xx status (see server/db/outage-notes.ts).
// The server in front of it (scripts/serve.ts) runs each page request with an outcome of its own;
// when Next.js starts a 5xx answer and the outcome says the database was unavailable, it answers
// instead: 503, Retry-After, and a page that says so with a link to try again (no stack, nothing
// of the error). Whatever Next.js writes afterwards is dropped. API routes answer 503 themselves.
// The client router's fetch of a page (RSC) is answered 200 before its render fails: there the
// error boundary (app/error.tsx) says the same, told by the error's digest
// (server/http/database-unavailable-wording.ts).
import type { IncomingMessage, ServerResponse } from "node:http";
import crypto from "node:crypto";
import { withDatabaseOutcome } from "../../server/db/outage-notes";
import { databaseUnavailableWording as wording } from "../../server/http/database-unavailable-wording";
import { DATABASE_RETRY_AFTER_SECONDS } from "../../server/db/retry-after";

type NodeHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void> | void;

/** The requests proxy.ts treats as pages: not the API, not Next.js's files, not a file with an extension. */
export function isPageRequest(url: string): boolean {
  const pathname = url.split("?", 1)[0] as string;
  return !/^\/(api|_next)\//.test(pathname) && !/\.[a-z0-9]+$/.test(pathname);
}

export function answeringPagesDuringOutages(handle: NodeHandler): NodeHandler {
  return (req, res) => {
    if (!isPageRequest(req.url ?? "/")) return handle(req, res);
    return withDatabaseOutcome((outcome) => {
      replaceFailureWhen(
        res,
        (status) => status >= 500 && outcome.databaseUnavailable,
        () => outagePage(req.url ?? "/"),
      );
      return handle(req, res);
    });
  };
}

// The headers of the answer being replaced that still hold: HSTS (from proxy.ts) and the two
// every answer gets.
const KEPT_HEADERS = new Set(["strict-transport-security", "x-content-type-options", "referrer-policy"]);

/**
 * When `res` is about to be sent with a status that `applies`, sends `replacement` instead
 * and ignores what the handler writes after. Node sends the status line through `writeHead`,
 * called by the handler or, on the first write, by Node itself; so overriding it sees both.
 */
function replaceFailureWhen(
  res: ServerResponse,
  applies: (status: number) => boolean,
  replacement: () => { status: number; headers: Record<string, string>; body: string },
) {
  const writeHead = res.writeHead.bind(res);
  const end = res.end.bind(res);
  res.writeHead = ((statusCode: number, ...rest: unknown[]) => {
    if (!applies(statusCode)) return (writeHead as (...args: unknown[]) => ServerResponse)(statusCode, ...rest);
    const answer = replacement();
    for (const name of res.getHeaderNames()) if (!KEPT_HEADERS.has(name)) res.removeHeader(name);
    writeHead(answer.status, { ...answer.headers, "Content-Length": String(Buffer.byteLength(answer.body)) });
    end(answer.body);
    // What the failed render still writes goes nowhere (a callback given is still called).
    res.write = ((_chunk: unknown, ...args: unknown[]) => (callbackIn(args)?.(), true)) as typeof res.write;
    res.end = ((...args: unknown[]) => (callbackIn(args)?.(), res)) as typeof res.end;
    return res;
  }) as typeof res.writeHead;
}

const callbackIn = (args: unknown[]) => args.find((arg): arg is () => void => typeof arg === "function");

const STYLE = `
:root { color-scheme: light dark; --bg: #f7f8fa; --surface: #fff; --text: #1b1f24; --muted: #5b6470; --border: #d9dee5; --accent: #2f5bd3; }
@media (prefers-color-scheme: dark) { :root { --bg: #0f1217; --surface: #171b22; --text: #e6e9ee; --muted: #9aa4b2; --border: #2d3440; --accent: #7c9cff; } }
body { margin: 0; background: var(--bg); color: var(--text); font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
header { border-bottom: 1px solid var(--border); background: var(--surface); padding: 0.75rem 1.25rem; font-weight: 700; font-size: 1.1rem; }
header span { color: var(--accent); }
main { max-width: 40rem; margin: 3rem auto; padding: 0 1.25rem; }
.card { background: var(--surface); border: 1px solid var(--border); border-radius: 8px; padding: 1.5rem; }
h1 { font-size: 1.4rem; margin: 0 0 0.75rem; }
p { margin: 0 0 0.75rem; }
.muted { color: var(--muted); font-size: 0.9rem; }
a.button { display: inline-block; margin: 0.5rem 0 1rem; padding: 0.45rem 0.9rem; border-radius: 6px; background: var(--accent); color: var(--bg); text-decoration: none; }
`;
const STYLE_HASH = `sha256-${crypto.createHash("sha256").update(STYLE).digest("base64")}`;

// (Attributes here are double-quoted: an apostrophe may stay.)
const escapeHtml = (text: string) => text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

/** The page, for a request of `url`: "Try again" opens the same page (without Next.js's RSC marker). */
export function outagePage(url: string): { status: number; headers: Record<string, string>; body: string } {
  const again = new URL(url, "http://page.invalid");
  again.searchParams.delete("_rsc");
  const body = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Can't reach the database · Versus</title>
<style>${STYLE}</style>
</head>
<body>
<header>Ver<span>sus</span></header>
<main>
<div class="card" role="alert">
<h1>${escapeHtml(wording.title)}</h1>
<p>${escapeHtml(wording.explanation)}</p>
<a class="button" href="${escapeHtml(again.pathname + again.search)}">${escapeHtml(wording.retry)}</a>
<p class="muted">${escapeHtml(wording.hint)}</p>
</div>
</main>
</body>
</html>
`;
  return {
    status: 503,
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Retry-After": String(DATABASE_RETRY_AFTER_SECONDS),
      "Cache-Control": "no-store",
      "Content-Security-Policy": `default-src 'none'; style-src '${STYLE_HASH}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
      "X-Content-Type-Options": "nosniff",
      "Referrer-Policy": "same-origin",
    },
    body,
  };
}
