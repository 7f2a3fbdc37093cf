// The agent protocol's routes (POST /api/v1/agents/… and /api/v1/jobs/…), the upload routes
// (POST /api/v1/results and /api/v1/imports), the routes a CI job polls (an experiment's
// comparison, check, history and badge; its batches) and the browser's tRPC calls, served by the
// HTTP server in front of Next.js without passing through Next.js. They are the busiest routes by
// far (every agent claims, renews and completes in a loop; every CI job uploads, then reads its
// verdict; every open page's live panels poll) and Next.js's routing, tracing, stream conversions
// and compression took half of the server's CPU per job (bench/jobs.ts), an eighth of it per
// upload, two thirds of it per comparison read and a third of it per tRPC query (bench/load.ts). The route modules are the very ones Next.js serves — app/api/v1/**/route.ts,
// loaded here as they are — so the handlers, validation, errors and answers are the same; only the
// request's way in and the answer's way out differ. Headers are those next.config.js gives every
// API answer, and answers are gzipped for clients that accept it, as Next.js does.
import http from "node:http";
import { apiAnswerHeaders } from "../../next.config.js";
import type { RouteMethod } from "../../server/api/route-methods";
import { INTERNAL_ERROR_MESSAGE } from "../../server/core/errors";
import { fetchRequestOf, sendResponse, smallBodyOf } from "./fetch-bridge";

// Agents' calls carry small bodies (a claim none, a complete usually a few KB), as do most uploads
// (a CI job's few runs of a thousand samples, up to ~100 KB): read whole, they reach the handler
// as a buffer beside its Request rather than as a web stream over the socket, which cost more
// than the handler's own work. Larger ones (many samples) are streamed, so that the handler's
// limit refuses a huge one without holding it, and so that callers the handler will refuse (a
// wrong key) hold no more than this each meanwhile.
const PRE_READ_BYTES = 256 * 1024;

// Each route's handlers take the path parameters its folder names ([id], [slugOrId], [metric]),
// which its pattern's `params` name in the same order (hence `never` here: any route's own shape).
type RouteModule = Record<RouteMethod, (req: Request, context: { params: Promise<never> }) => Promise<Response>>;

interface DirectRoute {
  pattern: RegExp;
  /** The route's path parameters, in the order of the pattern's groups. */
  params: string[];
  load: () => Promise<RouteModule>;
  /** The handler reads the Request's own body (tRPC's), not with readBody: a body read ahead goes in the Request. */
  bodyInRequest?: true;
}

// Static imports would make every importer of this file load the server's modules; these load
// on the first request to each route, and once (a dynamic import costs a trip through the
// TypeScript loader's hooks every time).
const once = (load: () => Promise<RouteModule>) => {
  let loaded: Promise<RouteModule> | undefined;
  // (A failed load is tried again on the next request.)
  return () =>
    (loaded ??= load().catch((error: unknown) => {
      loaded = undefined;
      throw error;
    }));
};
const routes: DirectRoute[] = [
  { pattern: /^\/api\/v1\/agents\/register$/, params: [], load: once(() => import("../../app/api/v1/agents/register/route")) },
  { pattern: /^\/api\/v1\/agents\/heartbeat$/, params: [], load: once(() => import("../../app/api/v1/agents/heartbeat/route")) },
  { pattern: /^\/api\/v1\/jobs\/claim$/, params: [], load: once(() => import("../../app/api/v1/jobs/claim/route")) },
  { pattern: /^\/api\/v1\/jobs\/([^/]+)\/lease$/, params: ["id"], load: once(() => import("../../app/api/v1/jobs/[id]/lease/route")) },
  { pattern: /^\/api\/v1\/jobs\/([^/]+)\/ready$/, params: ["id"], load: once(() => import("../../app/api/v1/jobs/[id]/ready/route")) },
  { pattern: /^\/api\/v1\/jobs\/([^/]+)\/complete$/, params: ["id"], load: once(() => import("../../app/api/v1/jobs/[id]/complete/route")) },
  { pattern: /^\/api\/v1\/jobs\/([^/]+)\/fail$/, params: ["id"], load: once(() => import("../../app/api/v1/jobs/[id]/fail/route")) },
  { pattern: /^\/api\/v1\/jobs\/([^/]+)\/release$/, params: ["id"], load: once(() => import("../../app/api/v1/jobs/[id]/release/route")) },
  { pattern: /^\/api\/v1\/results$/, params: [], load: once(() => import("../../app/api/v1/results/route")) },
  { pattern: /^\/api\/v1\/imports$/, params: [], load: once(() => import("../../app/api/v1/imports/route")) },
  {
    pattern: /^\/api\/v1\/experiments\/([^/]+)\/comparison$/,
    params: ["slugOrId"],
    load: once(() => import("../../app/api/v1/experiments/[slugOrId]/comparison/route")),
  },
  {
    pattern: /^\/api\/v1\/experiments\/([^/]+)\/check$/,
    params: ["slugOrId"],
    load: once(() => import("../../app/api/v1/experiments/[slugOrId]/check/route")),
  },
  {
    pattern: /^\/api\/v1\/experiments\/([^/]+)\/history$/,
    params: ["slugOrId"],
    load: once(() => import("../../app/api/v1/experiments/[slugOrId]/history/route")),
  },
  {
    pattern: /^\/api\/v1\/experiments\/([^/]+)\/badge\/([^/]+)$/,
    params: ["slugOrId", "metric"],
    load: once(() => import("../../app/api/v1/experiments/[slugOrId]/badge/[metric]/route")),
  },
  {
    pattern: /^\/api\/v1\/experiments\/([^/]+)\/batches$/,
    params: ["slugOrId"],
    load: once(() => import("../../app/api/v1/experiments/[slugOrId]/batches/route")),
  },
  { pattern: /^\/api\/v1\/batches\/([^/]+)$/, params: ["id"], load: once(() => import("../../app/api/v1/batches/[id]/route")) },
  { pattern: /^\/api\/v1\/batches\/([^/]+)\/cancel$/, params: ["id"], load: once(() => import("../../app/api/v1/batches/[id]/cancel/route")) },
  // The browser's calls (each page's live panels poll them); the procedure is named in the path.
  { pattern: /^\/api\/trpc\/([^/]+)$/, params: ["trpc"], load: once(() => import("../../app/api/trpc/[trpc]/route")), bodyInRequest: true },
];

/** The route a request is for, with its parameters, or undefined: Next.js serves it. */
export function directRouteOf(url: string): { route: DirectRoute; params: Record<string, string> } | undefined {
  const pathname = url.split("?", 1)[0] as string;
  for (const route of routes) {
    const match = route.pattern.exec(pathname);
    if (!match) continue;
    try {
      return { route, params: Object.fromEntries(route.params.map((name, i) => [name, decodeURIComponent(match[i + 1] as string)])) };
    } catch {
      return undefined; // a malformed %-escape: Next.js answers it as it answers any bad path
    }
  }
  return undefined;
}

/**
 * Serves the request when it is for one of the routes above (true), or leaves it
 * to Next.js (false). `origin` is the address the server listens on, for the Request's URL; the
 * handlers take links' origin from the request's headers (server/http/public-origin.ts).
 */
export async function serveDirectRoute(req: http.IncomingMessage, res: http.ServerResponse, origin: string): Promise<boolean> {
  const found = directRouteOf(req.url ?? "/");
  if (!found) return false;
  try {
    await answer(req, res, found, origin);
  } catch (error) {
    // The handlers answer their own errors; this is for what is left (a route that failed to load).
    console.error(`${req.method} ${req.url} failed:`, error);
    if (!res.headersSent) res.writeHead(500, { "Content-Type": "application/json" });
    res.end(JSON.stringify({ error: { code: "INTERNAL", message: INTERNAL_ERROR_MESSAGE } }));
  }
  return true;
}

async function answer(req: http.IncomingMessage, res: http.ServerResponse, found: NonNullable<ReturnType<typeof directRouteOf>>, origin: string) {
  const routeModule = await found.route.load();
  // A long-poll claim stops waiting when its agent hangs up.
  const hangUp = new AbortController();
  res.once("close", () => {
    if (!res.writableFinished) hangUp.abort();
  });
  let body: Buffer | undefined;
  try {
    body = await smallBodyOf(req, PRE_READ_BYTES);
  } catch {
    res.destroy(); // the agent hung up while sending: nobody to answer
    return;
  }
  const request = fetchRequestOf(req, new URL(req.url ?? "/", origin), hangUp.signal, body, { beside: !found.route.bodyInRequest });
  const response = await routeModule[req.method as RouteMethod](request, { params: Promise.resolve(found.params) as Promise<never> });
  await sendResponse(res, response, apiAnswerHeaders);
}
