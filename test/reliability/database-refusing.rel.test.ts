// Faults: PostgreSQL running but refusing new connections — the database closed to them
// (ALTER DATABASE … ALLOW_CONNECTIONS false: 55000), the server full (every connection slot
// taken: 53300), a smart shutdown under way (57P03 "the database system is shutting down") — and
// PostgreSQL stopped, against one real server process (scripts/serve.ts on the production build).
// In each state every kind of route answers 503 with Retry-After, never a 500: an agent's complete
// and heartbeat (served without Next.js), a tRPC query, signing in (better-auth) and a page, which
// shows "Versus can't reach its database" with a link to try again. After each, everything works
// again without restarting the server, and the job is completed at the end.
import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUserWithPassword, prepareNewAccount } from "~/server/auth/credentials";
import { createPrismaClient, type Db } from "~/server/db/client";
import { DATABASE_UNAVAILABLE_DIGEST } from "~/server/http/database-unavailable-wording";
import { startOwnDatabase, type OwnDatabase } from "~/test/own-database";
import { closeToConnections, fillConnectionSlots, shutDownSmartly } from "~/test/refused-connections";
import { runBatch, sleepProject, type TestProject } from "./fixtures";
import { eventually, startServer, type Child } from "./processes";

let database: OwnDatabase;
let db: Db;
let server: Child & { url: string };
let project: TestProject;
let credential: string;
let job: { id: string; leaseToken: string };
let cookie: string;
const account = { email: `refusals-${crypto.randomBytes(4).toString("hex")}@example.test`, password: `pw-${crypto.randomBytes(12).toString("base64url")}` };

beforeAll(async () => {
  database = await startOwnDatabase();
  db = createPrismaClient(database.url);
  server = await startServer({ databaseUrl: database.url });
  project = await sleepProject(db, "refusals", { sleepMs: 10 });
  const registered = await post("/api/v1/agents/register", project.token, { name: "python-like", kind: "other", version: "1.0.0", capabilities: ["sleep"] });
  expect(registered.status, await registered.clone().text()).toBe(201);
  credential = ((await registered.json()) as { credential: string }).credential;
  await runBatch(db, project);
  const claimed = await post("/api/v1/jobs/claim?wait=0", credential);
  expect(claimed.status).toBe(200);
  job = ((await claimed.json()) as { job: { id: string; leaseToken: string } }).job;

  const user = await db.$transaction(async (tx) => createUserWithPassword(tx, await prepareNewAccount({ name: "Refusals", ...account })));
  await db.member.create({ data: { projectId: project.id, userId: user.id, role: "owner" } });
  const signedIn = await signIn();
  expect(signedIn.status, await signedIn.clone().text()).toBe(200);
  cookie = (/versus\.session_token=[^;]+/.exec(signedIn.headers.get("set-cookie") ?? "") ?? [""])[0];
  expect(cookie).not.toBe("");
});
afterAll(async () => {
  await server?.stop("SIGTERM");
  await db?.$disconnect();
  await database?.remove();
});

function post(path: string, bearer: string, body?: unknown): Promise<Response> {
  return fetch(`${server.url}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${bearer}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}
const signIn = () =>
  fetch(`${server.url}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: server.url },
    body: JSON.stringify(account),
  });
const complete = () =>
  post(`/api/v1/jobs/${job.id}/complete`, credential, {
    leaseToken: job.leaseToken,
    run: { metrics: [{ key: "slept_ms", unit: "ms", direction: "lower_is_better", samples: [10, 11, 12] }] },
  });
const heartbeat = () => post("/api/v1/agents/heartbeat", credential, { runningJobIds: [job.id] });
const trpcQuery = () =>
  fetch(`${server.url}/api/trpc/agent.list?input=${encodeURIComponent(JSON.stringify({ json: { projectSlug: project.slug } }))}`, { headers: { cookie } });
const page = (path: string, headers: Record<string, string> = {}) => fetch(`${server.url}${path}`, { headers: { cookie, ...headers } });

/** Every kind of route, while the database refuses: 503, Retry-After, and each one's own error shape. */
async function expectEveryRouteUnavailable(state: string) {
  const context = () => `${state}\n${server.tail(40)}`;
  for (const [name, call] of [
    ["complete", complete],
    ["heartbeat", heartbeat],
  ] as const) {
    const response = await call();
    expect(response.status, `${name}: ${await response.clone().text()}\n${context()}`).toBe(503);
    expect(response.headers.get("retry-after"), name).toBe("5");
    expect(await response.json(), name).toEqual({ error: { code: "UNAVAILABLE", message: expect.stringContaining("The database is unavailable right now") } });
  }

  const trpc = await trpcQuery();
  expect(trpc.status, `tRPC: ${await trpc.clone().text()}\n${context()}`).toBe(503);
  expect(trpc.headers.get("retry-after")).toBe("5");
  expect(((await trpc.json()) as { error: { json: { data: { code: string } } } }).error.json.data.code).toBe("SERVICE_UNAVAILABLE");

  const signingIn = await signIn();
  expect(signingIn.status, `sign-in: ${await signingIn.clone().text()}\n${context()}`).toBe(503);
  expect(signingIn.headers.get("retry-after")).toBe("5");
  expect(await signingIn.json()).toEqual({ code: "UNAVAILABLE", message: expect.stringContaining("The database is unavailable right now") });

  // A page, as a browser opens it.
  for (const path of ["/", `/p/${project.slug}/agents`]) {
    const response = await page(path);
    const html = await response.text();
    expect(response.status, `page ${path}: ${html.slice(0, 300)}\n${context()}`).toBe(503);
    expect(response.headers.get("retry-after"), path).toBe("5");
    expect(response.headers.get("content-type"), path).toBe("text/html; charset=utf-8");
    expect(response.headers.get("cache-control"), path).toBe("no-store");
    expect(html, path).toContain("<h1>Versus can't reach its database</h1>");
    expect(html, path).toContain(`<a class="button" href="${path.split("?")[0]}">Try again</a>`);
    expect(html, path).not.toMatch(/at [\w.<>]+ \(|PrismaClient|DriverAdapterError|57P03|55000|53300|ECONNREFUSED/);
  }
  // The same page as the client router fetches it on a link's click: answered (200) before its
  // render failed, it carries the error whose digest the error boundary (app/error.tsx) tells.
  const navigation = await page(`/p/${project.slug}/agents?_rsc=x1`, { rsc: "1" });
  expect(await navigation.text(), context()).toContain(`"digest":"${DATABASE_UNAVAILABLE_DIGEST}"`);
}

/** The same routes once the database is back, without restarting the server. */
async function expectEveryRouteWorks() {
  await eventually("the server to reach the database again", async () => (await heartbeat()).status === 200, {
    timeoutMs: 60_000,
    context: () => server.tail(),
  });
  expect((await trpcQuery()).status).toBe(200);
  const home = await page("/");
  expect(home.status).toBe(200);
  expect(await home.text()).not.toContain("can't reach its database");
}

/** Every route answers 503 between `enter` and the leaving it returns, and works again after. */
async function whileRefused(state: string, enter: () => Promise<() => Promise<void>>) {
  const leave = await enter();
  try {
    await expectEveryRouteUnavailable(state);
  } finally {
    await leave();
  }
  await expectEveryRouteWorks();
}

describe("PostgreSQL refusing new connections, or stopped", () => {
  it("closed to connections (ALTER DATABASE … ALLOW_CONNECTIONS false: 55000): 503 with Retry-After everywhere, then back", async () => {
    await whileRefused("55000", () => closeToConnections(database));
  });

  it("full (every connection slot taken: 53300): 503 with Retry-After everywhere, then back", async () => {
    await whileRefused("53300", () => fillConnectionSlots(database));
  });

  it("shutting down (a smart shutdown waiting for a session: 57P03): 503 with Retry-After everywhere, then started again", async () => {
    await whileRefused("57P03", () => shutDownSmartly(database));
  });

  it("stopped: 503 with Retry-After everywhere, then started again; the job completes once", async () => {
    await whileRefused("stopped", async () => {
      await database.stop();
      return () => database.start();
    });
    const completed = await complete();
    expect(completed.status, await completed.clone().text()).toBe(201);
    expect(await db.run.count({ where: { experiment: { projectId: project.id } } })).toBe(1);
    expect(server.running).toBe(true);
    expect(
      server.lines.filter((line) => /REST request failed|failed:/.test(line)),
      server.tail(),
    ).toEqual([]);
  });
});
