// While the database cannot be reached, every API answers "come back later", never "internal
// error": the REST API (uploads, comparisons, the agent protocol) 503 with Retry-After and its
// JSON error body; tRPC SERVICE_UNAVAILABLE (HTTP 503, Retry-After) with a message the browser
// shows; sign-in (better-auth) and the export downloads 503 with Retry-After too. Here the server's database URL points at a port nothing listens on; the fault test
// with a real PostgreSQL stopped and crashed under load is test/reliability/database-restart.rel.test.ts.
import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { COOKIE_PREFIX } from "~/server/auth/auth-settings";
import { freePort } from "~/test/free-port";

process.env.BETTER_AUTH_SECRET ??= crypto.randomBytes(32).toString("base64url");
process.env.DATABASE_URL = `postgresql://versus:x@127.0.0.1:${await freePort()}/versus`;
const { POST: postResults } = await import("~/app/api/v1/results/route");
const { GET: getComparison } = await import("~/app/api/v1/experiments/[slugOrId]/comparison/route");
const { POST: postClaim } = await import("~/app/api/v1/jobs/claim/route");
const { POST: postComplete } = await import("~/app/api/v1/jobs/[id]/complete/route");
const { GET: trpcGet } = await import("~/app/api/trpc/[trpc]/route");
const { POST: authPost, GET: authGet } = await import("~/app/api/auth/[...all]/route");
const { GET: getRunsCsv } = await import("~/app/p/[project]/e/[experiment]/export/runs.csv/route");

const base = "http://test.local";
const bearer = (secret: string) => ({ authorization: `Bearer ${secret}` });

async function expectUnavailable(response: Response) {
  expect(response.status).toBe(503);
  expect(response.headers.get("retry-after")).toBe("5");
  expect(response.headers.get("content-type")).toContain("application/json");
  expect(await response.json()).toEqual({
    error: { code: "UNAVAILABLE", message: "The database is unavailable right now (restarting, refusing connections or unreachable); retry in 5 seconds" },
  });
}

describe("the REST API with the database unreachable", () => {
  it("an upload → 503 with Retry-After", async () => {
    const body = JSON.stringify({ experiment: "e", create: true, runs: [{ variant: "a", metrics: [{ key: "m", samples: [1] }] }] });
    await expectUnavailable(
      await postResults(new Request(`${base}/api/v1/results`, { method: "POST", headers: { ...bearer("vs_key"), "content-type": "application/json" }, body })),
    );
  });

  it("a comparison → 503 with Retry-After", async () => {
    await expectUnavailable(
      await getComparison(new Request(`${base}/api/v1/experiments/e/comparison`, { headers: bearer("vs_key") }), {
        params: Promise.resolve({ slugOrId: "e" }),
      }),
    );
  });

  it("an agent's claim and complete (statements run on the pool directly) → 503 with Retry-After", async () => {
    await expectUnavailable(await postClaim(new Request(`${base}/api/v1/jobs/claim?wait=0`, { method: "POST", headers: bearer("vsag_credential") })));
    const complete = new Request(`${base}/api/v1/jobs/j1/complete`, {
      method: "POST",
      headers: { ...bearer("vsag_credential"), "content-type": "application/json" },
      body: JSON.stringify({ leaseToken: "t", run: { metrics: [{ key: "m", samples: [1] }] } }),
    });
    await expectUnavailable(await postComplete(complete, { params: Promise.resolve({ id: "j1" }) }));
  });
});

describe("GET /api/health with the database unreachable", () => {
  it("503 degraded, naming why the database cannot be reached", async () => {
    const { GET: getHealth } = await import("~/app/api/health/route");
    const response = await getHealth(new Request(`${base}/api/health`));
    expect(response.status).toBe(503);
    const body = (await response.json()) as { status: string; database: { status: string; error: string } };
    expect(body.status).toBe("degraded");
    expect(body.database.status).toBe("unreachable");
    expect(body.database.error).toMatch(/Can't reach database server at 127\.0\.0\.1:\d+/);
  });
});

/** A session cookie signed as better-auth signs them, so that it looks the session up. */
function sessionCookie() {
  const token = crypto.randomBytes(16).toString("hex");
  const signature = crypto.createHmac("sha256", process.env.BETTER_AUTH_SECRET!).update(token).digest("base64");
  return `${COOKIE_PREFIX}.session_token=${encodeURIComponent(`${token}.${signature}`)}`;
}

describe("sign-in and downloads with the database unreachable", () => {
  it("signing in (better-auth) → 503 with Retry-After, and a message the sign-in form shows", async () => {
    const response = await authPost(
      new Request(`${base}/api/auth/sign-in/email`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: base },
        body: JSON.stringify({ email: "someone@example.test", password: "a long enough password" }),
      }),
    );
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toBe("5");
    expect(await response.json()).toEqual({
      code: "UNAVAILABLE",
      message: "The database is unavailable right now (restarting, refusing connections or unreachable); retry in 5 seconds",
    });
  });

  it("reading the session (better-auth's get-session) → 503 with Retry-After", async () => {
    const response = await authGet(new Request(`${base}/api/auth/get-session`, { headers: { cookie: sessionCookie() } }));
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toBe("5");
  });

  it("an export download → 503 with Retry-After", async () => {
    const response = await getRunsCsv(new Request(`${base}/p/p/e/e/export/runs.csv`, { headers: { cookie: sessionCookie() } }), {
      params: Promise.resolve({ project: "p", experiment: "e" }),
    });
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toBe("5");
    expect(await response.text()).toContain("The database is unavailable right now");
  });
});

describe("tRPC with the database unreachable", () => {
  async function expectServiceUnavailable(response: Response) {
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toBe("5");
    const body = (await response.json()) as { error: { json: { message: string; data: { code: string; httpStatus: number } } } };
    expect(body.error.json.data).toMatchObject({ code: "SERVICE_UNAVAILABLE", httpStatus: 503 });
    expect(body.error.json.message).toBe("The database is unavailable right now (restarting, refusing connections or unreachable); retry in 5 seconds");
  }

  it("a procedure's query → SERVICE_UNAVAILABLE, 503 with Retry-After", async () => {
    await expectServiceUnavailable(await trpcGet(new Request(`${base}/api/trpc/setup.status`)));
  });

  it("reading the session of a signed-in request → SERVICE_UNAVAILABLE, not a signed-out user", async () => {
    const cookie = sessionCookie();
    // Input the procedure refuses before reading anything (a 400 otherwise): only the session lookup can fail.
    await expectServiceUnavailable(
      await trpcGet(new Request(`${base}/api/trpc/setup.linkState?input=${encodeURIComponent(JSON.stringify({ json: {} }))}`, { headers: { cookie } })),
    );
  });
});
