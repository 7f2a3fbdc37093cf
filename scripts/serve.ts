// The HTTP server `npm start` runs (scripts/start.ts spawns it): Next.js — the production build,
// or the development server with `--dev` — as a request handler behind Node's HTTP server, which
// adds four things: believing X-Forwarded-* only from the proxies VERSUS_TRUSTED_PROXIES names
// (./lib/forwarded-headers.ts), answering the methods Next.js cannot route
// (./lib/method-guard.ts), answering a page that failed for want of the database with 503 and a
// page that says so (./lib/outage-page.ts), and, in production, serving the agent protocol's busy
// routes without passing through Next.js (./lib/direct-routes.ts). It also runs this process's
// background worker (server/background/worker.ts): the work that follows stored runs. With
// VERSUS_WORKERS above 1 (or unset, on several cores), one such process per worker
// (./lib/worker-processes.ts).
import cluster from "node:cluster";
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import path from "node:path";
import { runBackgroundWorker } from "../server/background/worker";
import { db } from "../server/db/client";
import { env, requiredEnv } from "../server/core/env";
import { serveDirectRoute } from "./lib/direct-routes";
import { settleForwardedHeaders, trustedProxyList } from "./lib/forwarded-headers";
import { guardMethods, refuseConnect } from "./lib/method-guard";
import { limitHeapGrowth } from "./lib/heap-growth";
import { answeringPagesDuringOutages } from "./lib/outage-page";
import { serveHandedConnections } from "./lib/connection-handoff";
import { exitWithPrimary, serverProcessCount, superviseWorkers } from "./lib/worker-processes";

const dev = process.argv.includes("--dev");
// With several server processes this one is their primary (./lib/worker-processes.ts) and serves
// nothing itself; the development server is always one process.
const processes = dev ? 1 : serverProcessCount();
if (processes > 1 && cluster.isPrimary) process.exit(await superviseWorkers(processes, (line) => console.log(`[versus] ${line}`)));
exitWithPrimary();
// React and Next.js pick their production or development build from NODE_ENV, as `next start` sets it.
(process.env as Record<string, string>).NODE_ENV = dev ? "development" : "production";
const { default: next } = await import("next");

const root = path.resolve(import.meta.dirname, "..");
const { PORT: port, HOSTNAME: hostname } = env;
const app = next({ dev, dir: root, hostname, port });
await app.prepare();
const handle = app.getRequestHandler();

// (An IPv6 address goes in brackets: HOSTNAME=:: listens on every address.)
const origin = `http://${hostname.includes(":") ? `[${hostname}]` : hostname}:${port}`;
// Where this machine reaches its own routes: an address that means "every address" is not one to
// connect to. From the settings, not the server's address: a worker of several never listens itself.
const ownOrigin = hostname === "0.0.0.0" || hostname === "::" ? `http://127.0.0.1:${port}` : origin;
// The development server leaves them to Next.js, which reloads them when their code changes.
const pages = answeringPagesDuringOutages(handle);
const serve = dev ? pages : async (req: IncomingMessage, res: ServerResponse) => void ((await serveDirectRoute(req, res, origin)) || (await pages(req, res)));
const trustedProxies = trustedProxyList(env.VERSUS_TRUSTED_PROXIES);
const guarded = guardMethods(serve, allowOf);
const server = http.createServer((req, res) => {
  settleForwardedHeaders(req, trustedProxies);
  return guarded(req, res);
});
server.on("connect", refuseConnect);
if (dev) server.on("upgrade", app.getUpgradeHandler()); // hot reloading's WebSocket
const serving = () => {
  // Once serving (./lib/heap-growth.ts): while Next.js loads, the heap only grows, and holding
  // each step to 10 % would collect dozens of times for nothing and slow the start.
  limitHeapGrowth(env.VERSUS_HEAP_GROWTH_PERCENT);
  console.log(`▲ Next.js ${dev ? "development server" : "server"} on http://${hostname}:${port}`);
};
// A worker of several serves the connections its primary hands it (./lib/connection-handoff.ts).
if (cluster.isWorker) {
  serveHandedConnections(server);
  serving();
} else server.listen(port, hostname, serving);

// Marks left by runs stored while no worker ran (a crash, a restart) are done now.
const stopWorker = new AbortController();
if (env.VERSUS_BACKGROUND_WORKER === "1") void runBackgroundWorker(db, requiredEnv("DATABASE_URL"), stopWorker.signal);

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    stopWorker.abort();
    server.close();
    server.closeAllConnections();
    void app.close().finally(() => process.exit(0));
  });
}

/** The route's methods, as its own OPTIONS answer lists them (route handlers: server/api/route-methods.ts). */
async function allowOf(req: IncomingMessage): Promise<string | null> {
  const response = await fetch(`${ownOrigin}${req.url ?? "/"}`, { method: "OPTIONS", redirect: "manual" });
  return response.headers.get("allow");
}
