// Faults: the server process killed with SIGKILL in the middle of a large upload (1,000 runs of
// 3,000 samples each, about 21 MB) — while the body is still arriving, and while the server is
// writing the runs — and of a large import (a CSV of 1,000 runs). What must hold: after the
// server is started again, the upload is either wholly stored (every run, every metric result)
// or not at all, never in part; its Idempotency-Key is not left taken, so the client's retry
// stores it whole; and an upload acknowledged just before a SIGKILL is there after it.
import crypto from "node:crypto";
import http from "node:http";
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from "vitest";
import { createPrismaClient } from "~/server/db/client";
import { createApiKey } from "~/server/projects/api-keys";
import { createProject } from "~/server/projects/projects";
import { eventually, startServer, type Child } from "./processes";

const databaseUrl = inject("databaseUrl");
const db = createPrismaClient(databaseUrl);
const RUNS = 1000;
const SAMPLES = 3000;
const children: Child[] = [];
const track = <T extends Child>(child: T): T => (children.push(child), child);
const context = () => children.map((child) => child.tail()).join("\n");
let project: { id: string; slug: string; key: string };

beforeAll(async () => {
  const slug = `rel-kill-${crypto.randomBytes(3).toString("hex")}`;
  const created = await createProject(db, { name: slug, slug, description: "" });
  project = { id: created.id, slug, key: (await createApiKey(db, slug, "faults")).secret };
});
afterEach(async () => {
  await Promise.all(children.splice(0).map((child) => child.stop("SIGKILL")));
});
afterAll(() => db.$disconnect());

/** An upload of RUNS runs of SAMPLES samples each (a few digits apiece), into a new experiment. */
function largeUpload(experiment: string): Buffer {
  let seed = 42;
  const sample = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return Math.round((10 + (seed / 2 ** 31) * 5) * 1000) / 1000;
  };
  const runs = Array.from({ length: RUNS }, (_, r) => ({
    variant: r % 2 === 0 ? "A" : "B",
    tags: [experiment],
    metrics: [{ key: "latency_ms", unit: "ms", direction: "lower_is_better", samples: Array.from({ length: SAMPLES }, sample) }],
  }));
  return Buffer.from(JSON.stringify({ experiment, create: true, runs }));
}

/** A generic CSV of RUNS rows (one run each) with three metrics. */
function largeCsv(): Buffer {
  const rows = Array.from(
    { length: RUNS },
    (_, r) => `${r % 2 === 0 ? "A" : "B"},${r + 1},${(200 + (r % 37)).toFixed(3)},${(800 + (r % 53)).toFixed(3)},${(4 + (r % 7) / 10).toFixed(3)}`,
  );
  return Buffer.from(`variant,repetition,time [ms],throughput [ops/s],heap_used (MB):lower\n${rows.join("\n")}\n`);
}

interface Request {
  path: string;
  body: Buffer;
  contentType: string;
  key: string;
}

/** POSTs `request`; `afterBytes` pauses the body after that many bytes (until the connection ends). */
function post(
  url: string,
  request: Request,
  afterBytes = request.body.length,
): { answer: Promise<{ status: number; body: string } | Error>; sent: Promise<void> } {
  let sentAll!: () => void;
  const sent = new Promise<void>((resolve) => (sentAll = resolve));
  const answer = new Promise<{ status: number; body: string } | Error>((resolve) => {
    const req = http.request(`${url}${request.path}`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${project.key}`,
        "content-type": request.contentType,
        "content-length": request.body.length,
        "idempotency-key": request.key,
      },
    });
    req.on("response", (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
      response.on("error", resolve);
    });
    req.on("error", resolve);
    req.write(request.body.subarray(0, afterBytes), () => sentAll());
    if (afterBytes >= request.body.length) req.end();
  });
  return { answer, sent };
}

/** What of the experiment is in the database: runs, metric results, the Idempotency-Key's record. */
async function stored(experiment: string, key: string) {
  const [runs, results, ingest, experiments] = await Promise.all([
    db.run.count({ where: { experiment: { projectId: project.id, slug: experiment } } }),
    db.runMetricResult.count({ where: { run: { experiment: { projectId: project.id, slug: experiment } } } }),
    db.ingestRequest.count({ where: { projectId: project.id, idempotencyKey: key } }),
    db.experiment.count({ where: { projectId: project.id, slug: experiment } }),
  ]);
  return { experiments, runs, results, ingest };
}

const nothing = { experiments: 0, runs: 0, results: 0, ingest: 0 };

/**
 * After a SIGKILL during the write: all of it (the transaction committed; the answer may have
 * been lost with the process) or none of it, never part; an answer 2xx only when it is all there.
 */
async function allOrNothing(answer: { status: number; body: string } | Error, experiment: string, key: string, metricsPerRun: number) {
  const now = await stored(experiment, key);
  const all = { experiments: 1, runs: RUNS, results: RUNS * metricsPerRun, ingest: 1 };
  expect([nothing, all], JSON.stringify(now)).toContainEqual(now);
  if (!(answer instanceof Error) && answer.status < 300) expect(now).toEqual(all);
  return now.runs === 0 ? "nothing" : "all";
}

/**
 * The server is inside the upload's transaction, writing runs (seen from PostgreSQL's side): the
 * one statement that inserts an upload's runs, results and series (server/runs/store-runs.ts, a
 * WITH of INSERTs) is running, or has run and the transaction is still open.
 */
async function writingRuns(): Promise<boolean> {
  const [row] = await db.$queryRaw<{ writing: bigint }[]>`
    SELECT count(*) AS writing FROM pg_stat_activity
    WHERE datname = current_database() AND pid <> pg_backend_pid() AND xact_start IS NOT NULL
      AND query LIKE '%INSERT INTO "Run" (%'`;
  return Number(row?.writing) > 0;
}

/** Kills the server with SIGKILL, starts a new one on the same port; resolves with it. */
async function killAndRestart(server: Child & { port: number }) {
  expect(await server.stop("SIGKILL")).toBe("SIGKILL");
  return track(await startServer({ databaseUrl, port: server.port }));
}

/** The retry a client makes after losing the connection: same key, same body → stored whole, once (201, or 200 when it was already). */
async function retryStoresWhole(url: string, request: Request, experiment: string, metricsPerRun: number) {
  const retry = await post(url, request).answer;
  expect(retry, context()).toMatchObject({ status: expect.any(Number) });
  expect([200, 201], (retry as { body: string }).body.slice(0, 500)).toContain((retry as { status: number }).status);
  expect(JSON.parse((retry as { body: string }).body).runs).toHaveLength(RUNS);
  expect(await stored(experiment, request.key)).toEqual({ experiments: 1, runs: RUNS, results: RUNS * metricsPerRun, ingest: 1 });
}

/**
 * Posts `request`, SIGKILLs the server while it writes the runs and starts another: all or
 * nothing was stored, and the client's retry stores it whole. Resolves with the new server.
 */
async function killWhileWriting(request: Request, experiment: string, metricsPerRun: number, what: string) {
  const server = track(await startServer({ databaseUrl }));
  const { answer } = post(server.url, request);
  await eventually(`the server to be writing the ${what}'s runs`, writingRuns, { context, timeoutMs: 180_000 });
  const restarted = await killAndRestart(server);
  console.log(`faults: SIGKILL while writing the ${what}'s ${RUNS} runs: ${await allOrNothing(await answer, experiment, request.key, metricsPerRun)} stored`);
  await retryStoresWhole(restarted.url, request, experiment, metricsPerRun);
  return restarted;
}

describe("the server killed with SIGKILL during a large upload", () => {
  it("while the body is arriving: nothing is stored; the retry stores every run", async () => {
    const experiment = `kill-body-${crypto.randomBytes(3).toString("hex")}`;
    const request = { path: "/api/v1/results", body: largeUpload(experiment), contentType: "application/json", key: `key-${experiment}` };
    expect(request.body.length).toBeGreaterThan(20_000_000);
    const server = track(await startServer({ databaseUrl }));
    const { answer, sent } = post(server.url, request, Math.floor(request.body.length / 2));
    await sent;
    const restarted = await killAndRestart(server);
    expect(await answer).toBeInstanceOf(Error);
    expect(await stored(experiment, request.key)).toEqual(nothing);
    await retryStoresWhole(restarted.url, request, experiment, 1);
  });

  it("while it writes the runs (inside the transaction): all or nothing is stored; the retry stores every run; acknowledged runs survive the next SIGKILL", async () => {
    const experiment = `kill-write-${crypto.randomBytes(3).toString("hex")}`;
    const request = { path: "/api/v1/results", body: largeUpload(experiment), contentType: "application/json", key: `key-${experiment}` };
    const restarted = await killWhileWriting(request, experiment, 1, "upload");

    // Acknowledged, then killed at once: still all there, once.
    await killAndRestart(restarted);
    expect(await stored(experiment, request.key)).toEqual({ experiments: 1, runs: RUNS, results: RUNS, ingest: 1 });
  });

  it("an import (a CSV of 1,000 runs) killed while it writes: all or nothing is stored; the retry stores every run", async () => {
    const experiment = `kill-import-${crypto.randomBytes(3).toString("hex")}`;
    const request = {
      path: `/api/v1/imports?format=csv&experiment=${experiment}&create=true`,
      body: largeCsv(),
      contentType: "text/csv",
      key: `key-${experiment}`,
    };
    await killWhileWriting(request, experiment, 3, "import");
  });
});
