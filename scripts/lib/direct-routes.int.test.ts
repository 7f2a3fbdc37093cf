// The agent protocol's and the upload routes served without Next.js (direct-routes.ts): the same handlers over
// real HTTP, with the headers every API answer gets, the bodies and statuses the handlers give,
// a hung-up long-poll that stops waiting, and every other request left to Next.js (a stand-in
// here that records what reached it). The database is the real one.
import http from "node:http";
import zlib from "node:zlib";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiAnswerHeaders } from "~/next.config.js";
import { db } from "~/server/db/client";
import { jobWakeups } from "~/server/agents/wakeups";
import { createApiKey } from "~/server/projects/api-keys";
import { batchOf, jobsProject, type JobsProject } from "~/test/agent-protocol";
import { serveDirectRoute } from "./direct-routes";

const reached: string[] = [];
let server: http.Server;
let port: number;
let project: JobsProject;

beforeAll(async () => {
  project = await jobsProject(db, "direct");
  server = http.createServer(async (req, res) => {
    if (await serveDirectRoute(req, res, `http://127.0.0.1:${port}`)) return;
    reached.push(`${req.method} ${req.url}`);
    res.writeHead(200, { "content-type": "text/plain" }).end("from Next.js");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await db.$disconnect();
});

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

function call(
  method: string,
  path: string,
  options: { credential?: string; body?: unknown; signal?: AbortSignal; contentType?: string; headers?: http.OutgoingHttpHeaders } = {},
): Promise<Answer> {
  const payload = options.body === undefined ? undefined : typeof options.body === "string" ? options.body : JSON.stringify(options.body);
  const headers: http.OutgoingHttpHeaders = {
    "content-type": options.contentType ?? "application/json",
    ...options.headers,
    ...(payload === undefined ? {} : { "content-length": Buffer.byteLength(payload) }),
  };
  if (options.credential) headers.authorization = `Bearer ${options.credential}`;
  return new Promise((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port, method, path, headers, signal: options.signal }, (res) => {
      let body = "";
      res
        .setEncoding("utf8")
        .on("data", (chunk: string) => (body += chunk))
        .on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on("error", reject);
    req.end(payload);
  });
}

interface Reply {
  credential: string;
  job: { id: string; leaseToken: string };
  run: { repetition: number };
  error: { code: string; message: string };
}
const json = (answer: Answer) => JSON.parse(answer.body) as Reply;

async function registered(name: string): Promise<string> {
  const answer = await call("POST", "/api/v1/agents/register", {
    credential: project.token,
    body: { name, kind: "other", version: "1.0.0", capabilities: ["noop"] },
  });
  expect(answer.status, answer.body).toBe(201);
  return json(answer).credential;
}

describe("the agent routes served without Next.js", () => {
  it("register, claim and complete: the handlers' answers, with every API answer's headers and the body's length", async () => {
    const credential = await registered("direct-1");
    await batchOf(db, project);
    const claim = await call("POST", "/api/v1/jobs/claim?wait=0", { credential });
    expect(claim.status, claim.body).toBe(200);
    for (const { key, value } of apiAnswerHeaders) expect(claim.headers[key.toLowerCase()]).toBe(value);
    expect(claim.headers["content-type"]).toMatch(/^application\/json/);
    expect(Number(claim.headers["content-length"])).toBe(Buffer.byteLength(claim.body));
    const job = json(claim).job;

    const complete = await call("POST", `/api/v1/jobs/${job.id}/complete`, {
      credential,
      body: { leaseToken: job.leaseToken, run: { metrics: [{ key: "latency", samples: [1, 2, 3] }] } },
    });
    expect(complete.status, complete.body).toBe(201);
    expect(json(complete)).toMatchObject({ run: { repetition: 0 }, replayed: false });
    expect(await db.job.findUniqueOrThrow({ where: { id: job.id }, select: { status: true } })).toEqual({ status: "succeeded" });
    expect(reached).toEqual([]);
  });

  it("a body read whole (small, with its length) and one streamed (large, or chunked without a length) reach the handler alike", async () => {
    const credential = await registered("direct-5");
    await batchOf(db, project);
    const completeWith = async (samples: number[], chunked: boolean) => {
      const job = json(await call("POST", "/api/v1/jobs/claim?wait=0", { credential })).job;
      const payload = JSON.stringify({ leaseToken: job.leaseToken, run: { metrics: [{ key: "latency", samples }] } });
      const answer = await new Promise<Answer>((resolve, reject) => {
        const headers: http.OutgoingHttpHeaders = {
          "content-type": "application/json",
          authorization: `Bearer ${credential}`,
          ...(chunked ? {} : { "content-length": Buffer.byteLength(payload) }),
        };
        const req = http.request({ host: "127.0.0.1", port, method: "POST", path: `/api/v1/jobs/${job.id}/complete`, headers }, (res) => {
          let body = "";
          res
            .setEncoding("utf8")
            .on("data", (chunk: string) => (body += chunk))
            .on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
        });
        req.on("error", reject);
        // Two writes: a chunked request sends them as two chunks.
        req.write(payload.slice(0, 10));
        req.end(payload.slice(10));
      });
      expect(answer.status, answer.body).toBe(201);
      const run = await db.run.findFirstOrThrow({ where: { job: { id: job.id } }, include: { results: true } });
      expect(Number(run.results[0]?.n)).toBe(samples.length);
      return payload.length;
    };
    expect(await completeWith([1, 2, 3], false)).toBeLessThan(64 * 1024);
    // Read whole too (up to 256 KB), as an upload of a few runs of a thousand samples is.
    const some = Array.from({ length: 5_000 }, (_, i) => 1000 + i / 7);
    expect(await completeWith(some, false)).toBeGreaterThan(64 * 1024);
    const many = Array.from({ length: 20_000 }, (_, i) => 1000 + i / 7);
    expect(await completeWith(many, false)).toBeGreaterThan(256 * 1024);
    await completeWith([4, 5, 6], true);
  });

  it("answers errors as the handlers do: 401 with its challenge, 404 naming the job, 405 with Allow", async () => {
    const unknown = await call("POST", "/api/v1/jobs/claim", { credential: "vsag_nobody" });
    expect(unknown.status).toBe(401);
    expect(unknown.headers["www-authenticate"]).toBe('Bearer realm="versus"');
    expect(json(unknown).error.code).toBe("UNAUTHORIZED");

    const credential = await registered("direct-2");
    const missing = await call("POST", "/api/v1/jobs/no-such-job/lease", { credential, body: { leaseToken: "vlease_x" } });
    expect(missing.status).toBe(404);
    expect(json(missing).error.message).toContain('"no-such-job"');

    const get = await call("GET", "/api/v1/jobs/claim", { credential });
    expect(get.status).toBe(405);
    expect(get.headers.allow).toBe("OPTIONS, POST");
  });

  it("a GET, HEAD or DELETE that carries a body (found by the API fuzz: GET answered 500) is 405 with Allow, for every route", async () => {
    const credential = await registered("direct-body");
    for (const path of [
      "/api/v1/agents/register",
      "/api/v1/agents/heartbeat",
      "/api/v1/jobs/claim",
      "/api/v1/jobs/some-job/lease",
      "/api/v1/jobs/some-job/complete",
      "/api/v1/jobs/some-job/fail",
      "/api/v1/jobs/some-job/release",
    ]) {
      for (const method of ["GET", "HEAD", "DELETE"]) {
        const answer = await call(method, path, { credential, body: { leaseToken: "vlease_x" } });
        expect({ path, method, status: answer.status, allow: answer.headers.allow }, answer.body).toEqual({
          path,
          method,
          status: 405,
          allow: "OPTIONS, POST",
        });
      }
    }
  });

  it("an empty claim is 204 with no body and no Content-Length", async () => {
    const credential = await registered("direct-3");
    await db.job.updateMany({ where: { projectId: project.id, status: "queued" }, data: { status: "cancelled" } });
    const answer = await call("POST", "/api/v1/jobs/claim?wait=0", { credential });
    expect(answer.status).toBe(204);
    expect(answer.body).toBe("");
    expect(answer.headers["content-length"]).toBeUndefined();
  });

  it("a long-poll claim whose agent hangs up stops waiting", async () => {
    const credential = await registered("direct-4");
    const wakeups = jobWakeups();
    const before = wakeups.waiting;
    const hangUp = new AbortController();
    const claim = call("POST", "/api/v1/jobs/claim?wait=30", { credential, signal: hangUp.signal });
    await expect.poll(() => wakeups.waiting).toBe(before + 1);
    hangUp.abort();
    await expect(claim).rejects.toThrow();
    await expect.poll(() => wakeups.waiting).toBe(before);
  });

  it("leaves every other request to Next.js, including a malformed job id escape", async () => {
    for (const path of ["/api/v1/experiments", "/api/v1/jobs", "/api/v1/jobs/abc/unknown", "/api/v1/jobs/%E0%A4%A/lease", "/p/some-project"]) {
      const answer = await call("POST", path);
      expect(answer.body).toBe("from Next.js");
    }
    expect(reached).toEqual([
      "POST /api/v1/experiments",
      "POST /api/v1/jobs",
      "POST /api/v1/jobs/abc/unknown",
      "POST /api/v1/jobs/%E0%A4%A/lease",
      "POST /p/some-project",
    ]);
  });
});

describe("the upload routes served without Next.js", () => {
  const runs = [{ variant: "A", metrics: [{ key: "latency", samples: [1, 2, 3] }] }];

  it("an upload: 201 with every API answer's headers, its retry with the same Idempotency-Key replayed (200)", async () => {
    const credential = (await createApiKey(db, project.slug, "direct uploads")).secret;
    const before = reached.length;
    const upload = () =>
      call("POST", "/api/v1/results", { credential, body: { experiment: project.experimentSlug, runs }, headers: { "idempotency-key": "direct-1" } });
    const first = await upload();
    expect(first.status, first.body).toBe(201);
    for (const { key, value } of apiAnswerHeaders) expect(first.headers[key.toLowerCase()]).toBe(value);
    expect(JSON.parse(first.body)).toMatchObject({ replayed: false, runs: [{ variant: "A", metrics: ["latency"] }] });
    const again = await upload();
    expect(again.status, again.body).toBe(200);
    expect(JSON.parse(again.body)).toMatchObject({ replayed: true, runs: JSON.parse(first.body).runs });
    expect(reached.length).toBe(before);
  });

  it("an import: the tool's output stored as runs (201), a bad query answered as the handler answers it (400)", async () => {
    const credential = (await createApiKey(db, project.slug, "direct imports")).secret;
    const before = reached.length;
    const text = ["goos: linux", "BenchmarkEncode-2   \t  400000\t      3000 ns/op", "PASS", ""].join("\n");
    const path = "/api/v1/imports?format=gobench&experiment=direct-import&variant=B&create=true";
    const imported = await call("POST", path, { credential, body: text, contentType: "text/plain" });
    expect(imported.status, imported.body).toBe(201);
    expect(JSON.parse(imported.body)).toMatchObject({ runs: [{ variant: "B" }] });
    const refused = await call("POST", "/api/v1/imports?format=no-such-tool", { credential, body: text, contentType: "text/plain" });
    expect(refused.status, refused.body).toBe(400);
    expect(reached.length).toBe(before);
  });
});

describe("the routes a CI job polls served without Next.js", () => {
  /** The answer's raw bytes, with `acceptEncoding` sent as the client's Accept-Encoding. */
  function raw(
    path: string,
    credential: string,
    acceptEncoding?: string,
    more: http.OutgoingHttpHeaders = {},
  ): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
    const headers: http.OutgoingHttpHeaders = {
      authorization: `Bearer ${credential}`,
      ...(acceptEncoding ? { "accept-encoding": acceptEncoding } : {}),
      ...more,
    };
    return new Promise((resolve, reject) => {
      const req = http.request({ host: "127.0.0.1", port, method: "GET", path, headers }, (res) => {
        const chunks: Buffer[] = [];
        res
          .on("data", (chunk: Buffer) => chunks.push(chunk))
          .on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      });
      req.on("error", reject).end();
    });
  }

  it("a comparison: the handler's JSON, gzipped when the client accepts gzip (Vary: Accept-Encoding), plain when it does not", async () => {
    const credential = (await createApiKey(db, project.slug, "direct reads")).secret;
    const samples = (shift: number) => Array.from({ length: 200 }, (_, i) => 10 + shift + (i % 17) / 10);
    const runs = [0, 1, 2].flatMap(() => [
      { variant: "A", metrics: [{ key: "latency", unit: "ms", direction: "lower_is_better", samples: samples(0) }] },
      { variant: "B", metrics: [{ key: "latency", samples: samples(1) }] },
    ]);
    const stored = await call("POST", "/api/v1/results", { credential, body: { experiment: "direct-reads", create: true, runs } });
    expect(stored.status, stored.body).toBe(201);
    const before = reached.length;
    const path = "/api/v1/experiments/direct-reads/comparison";

    const plain = await raw(path, credential);
    expect(plain.status, plain.body.toString()).toBe(200);
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.headers.vary).toContain("Accept-Encoding");
    expect(plain.body.length).toBeGreaterThan(1024);
    const comparison = JSON.parse(plain.body.toString()) as { metrics: unknown[] };
    expect(comparison.metrics.length).toBe(1);

    const gzipped = await raw(path, credential, "br;q=1, gzip;q=0.8");
    expect(gzipped.status).toBe(200);
    expect(gzipped.headers["content-encoding"]).toBe("gzip");
    expect(gzipped.headers.vary).toContain("Accept-Encoding");
    expect(Number(gzipped.headers["content-length"])).toBe(gzipped.body.length);
    expect(gzipped.body.length).toBeLessThan(plain.body.length);
    expect(JSON.parse(zlib.gunzipSync(gzipped.body).toString())).toEqual(comparison);
    for (const { key, value } of apiAnswerHeaders) expect(gzipped.headers[key.toLowerCase()]).toBe(value);

    // gzip refused by its client (q=0): plain.
    expect((await raw(path, credential, "gzip;q=0")).headers["content-encoding"]).toBeUndefined();
    expect(reached.length).toBe(before);
  });

  it("a comparison's ETag: If-None-Match answers 304 without a body while the runs are the same, 200 with a new tag after new runs", async () => {
    const credential = (await createApiKey(db, project.slug, "conditional reads")).secret;
    const samples = (shift: number) => Array.from({ length: 300 }, (_, i) => 20 + shift + (i % 13) / 10);
    const upload = (variant: string, shift: number) => ({
      variant,
      metrics: [{ key: "latency", unit: "ms", direction: "lower_is_better", samples: samples(shift) }],
    });
    const first = await call("POST", "/api/v1/results", {
      credential,
      body: { experiment: "conditional-reads", create: true, runs: [upload("A", 0), upload("B", 1)] },
    });
    expect(first.status, first.body).toBe(201);
    const path = "/api/v1/experiments/conditional-reads/comparison";

    const plain = await raw(path, credential);
    const tag = plain.headers.etag as string;
    expect(plain.status).toBe(200);
    expect(tag).toMatch(/^W\/".+"$/);
    // The cached comparison's gzipped bytes are kept: the same bytes answer after answer, and they are the plain answer.
    const gzipped = [await raw(path, credential, "gzip"), await raw(path, credential, "gzip")];
    for (const answer of gzipped) {
      expect(answer.headers.etag).toBe(tag);
      expect(zlib.gunzipSync(answer.body).toString()).toBe(plain.body.toString());
    }
    expect(gzipped[1]?.body.equals(gzipped[0]?.body as Buffer)).toBe(true);

    for (const encoding of [undefined, "gzip"]) {
      const unchanged = await raw(path, credential, encoding, { "if-none-match": tag });
      expect(unchanged.status).toBe(304);
      expect(unchanged.body.length).toBe(0);
      expect(unchanged.headers.etag).toBe(tag);
    }
    // A tag of another answer, or a client that asks past caches, gets the whole answer.
    expect((await raw(path, credential, undefined, { "if-none-match": 'W/"1-other"' })).status).toBe(200);
    expect((await raw(path, credential, undefined, { "if-none-match": tag, "cache-control": "no-cache" })).status).toBe(200);

    const more = await call("POST", "/api/v1/results", { credential, body: { experiment: "conditional-reads", runs: [upload("B", 2)] } });
    expect(more.status, more.body).toBe(201);
    const after = await raw(path, credential, "gzip", { "if-none-match": tag });
    expect(after.status).toBe(200);
    expect(after.headers.etag).not.toBe(tag);
    const comparison = JSON.parse(zlib.gunzipSync(after.body).toString()) as { metrics: { variants: { name: string; runs: number }[] }[] };
    expect(JSON.stringify(comparison)).not.toBe(plain.body.toString());
  });

  it("check, history, badge (two path parameters) and batches answer as their handlers do; a small answer is never gzipped", async () => {
    const credential = (await createApiKey(db, project.slug, "direct polls")).secret;
    const before = reached.length;
    const history = await raw("/api/v1/experiments/direct-reads/history?metric=latency", credential, "gzip");
    expect(history.status, history.body.toString()).toBe(200);
    const badge = await raw("/api/v1/experiments/direct-reads/badge/latency.svg", credential);
    expect(badge.status, badge.body.toString()).toBe(200);
    expect(badge.headers["content-type"]).toMatch(/^image\/svg\+xml/);
    expect(badge.body.toString()).toContain("<svg");
    const unknownMetric = await raw("/api/v1/experiments/direct-reads/badge/no-such-metric.svg", credential);
    expect(unknownMetric.status).toBe(404);
    const check = await raw("/api/v1/experiments/no-such-experiment/check?commit=abc1234&branch=main", credential, "gzip");
    expect(check.status, check.body.toString()).toBe(404);
    expect(check.headers["content-encoding"]).toBeUndefined();
    expect(JSON.parse(check.body.toString())).toMatchObject({ error: { code: "NOT_FOUND" } });
    const batch = await raw("/api/v1/batches/no-such-batch", credential);
    expect(batch.status).toBe(404);
    const postToRead = await call("POST", "/api/v1/experiments/direct-reads/comparison", { credential });
    expect(postToRead.status).toBe(405);
    expect(postToRead.headers.allow).toBe("GET, HEAD, OPTIONS");
    expect(reached.length).toBe(before);
  });
});

describe("the browser's tRPC calls served without Next.js", () => {
  it("a batch of queries answers each (a public one, one that needs a session: 401), and a cross-site mutation is refused (403)", async () => {
    const before = reached.length;
    const batch = await call(
      "GET",
      `/api/trpc/setup.status,job.batches?batch=1&input=${encodeURIComponent(JSON.stringify({ 1: { json: { projectSlug: "p", experimentSlug: "e" } } }))}`,
    );
    const answers = JSON.parse(batch.body) as [{ result?: { data: { json: { needsSetup: boolean } } } }, { error?: { json: { data: { code: string } } } }];
    expect(typeof answers[0].result?.data.json.needsSetup).toBe("boolean");
    expect(answers[1].error?.json.data.code).toBe("UNAUTHORIZED");
    expect(batch.headers["cache-control"]).toBe("no-store");
    const crossSite = await call("POST", "/api/trpc/invitation.accept", {
      headers: { cookie: "better-auth.session_token=x", origin: "https://elsewhere.example", "sec-fetch-site": "cross-site" },
      body: {},
    });
    expect(crossSite.status, crossSite.body).toBe(403);
    expect(reached.length).toBe(before);
  });
});
