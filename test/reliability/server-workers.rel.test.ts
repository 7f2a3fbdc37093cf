// The server as `npm start` runs it with VERSUS_WORKERS=2: two worker processes on one port
// (scripts/lib/worker-processes.ts), each with its own pool, admission and comparison cache.
// What must hold: uploads sent at once through both are each stored once, under repetitions no
// two share, and a retried Idempotency-Key replays through either; a comparison each worker has
// cached shows runs stored through the other at the next read; SIGTERM stops the workers with the
// primary, and a worker killed alone is replaced.
import { spawnSync } from "node:child_process";
import crypto from "node:crypto";
import http from "node:http";
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from "vitest";
import { createPrismaClient } from "~/server/db/client";
import { createApiKey } from "~/server/projects/api-keys";
import { createProject } from "~/server/projects/projects";
import { eventually, startServer, type Child } from "./processes";

const databaseUrl = inject("databaseUrl");
const db = createPrismaClient(databaseUrl);
const servers: Child[] = [];
let key: string;

beforeAll(async () => {
  const slug = `rel-workers-${crypto.randomBytes(3).toString("hex")}`;
  await createProject(db, { name: slug, slug, description: "" });
  key = (await createApiKey(db, slug, "workers")).secret;
});
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.stop("SIGTERM")));
});
afterAll(() => db.$disconnect());

/**
 * The worker processes under the server's primary (its other children are the TypeScript loader's
 * esbuild); none while it has no child at all (ps then exits 1, e.g. between a worker's death and
 * its replacement on a loaded machine).
 */
function workersOf(server: Child): number[] {
  const ps = spawnSync("ps", ["-o", "pid=,args=", "--ppid", String(server.process.pid)], { encoding: "utf8" });
  if (ps.status !== 0 && ps.status !== 1) throw new Error(`ps failed (${ps.status}): ${ps.stderr}`);
  return ps.stdout
    .split("\n")
    .filter((line) => line.includes("scripts/serve.ts"))
    .map((line) => Number.parseInt(line.trim(), 10));
}

/**
 * One request on a connection of its own: the primary hands each new connection to the next
 * worker in turn, so consecutive requests alternate between the two (fetch would keep one
 * connection, and one worker, for all of them).
 */
function request(url: string, method: string, path: string, headers: Record<string, string>, body?: string): Promise<{ status: number; json: unknown }> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${url}${path}`, { method, headers: { ...headers, connection: "close" }, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        resolve({ status: res.statusCode ?? 0, json: res.headers["content-type"]?.includes("json") ? JSON.parse(text) : text });
      });
    });
    req.on("error", reject);
    req.end(body);
  });
}

const auth = () => ({ authorization: `Bearer ${key}` });
const upload = (url: string, experiment: string, variant: string, idempotencyKey: string) =>
  request(
    url,
    "POST",
    "/api/v1/results",
    { ...auth(), "content-type": "application/json", "idempotency-key": idempotencyKey },
    JSON.stringify({
      experiment,
      create: true,
      runs: [{ variant, metrics: [{ key: "latency_ms", unit: "ms", direction: "lower_is_better", samples: [10, 11, 12, 13] }] }],
    }),
  );
type UploadAnswer = { replayed: boolean; runs: { id: string; variant: string; repetition: number }[] };
type ComparisonAnswer = { variants: { name: string; runs: number }[] };
const runsOf = (answer: unknown, variant: string) => (answer as ComparisonAnswer).variants.find((v) => v.name === variant)?.runs;

describe("VERSUS_WORKERS=2", () => {
  it("uploads through both workers are stored once each, and a comparison cached by each sees runs stored through the other", async () => {
    const server = await startServer({ databaseUrl, env: { VERSUS_WORKERS: "2" } });
    servers.push(server);
    expect(workersOf(server), server.tail()).toHaveLength(2);
    const experiment = `workers-${crypto.randomBytes(3).toString("hex")}`;

    // Both variants exist first, so the uploads below share the experiment's lock.
    for (const variant of ["baseline", "candidate"]) expect((await upload(server.url, experiment, variant, crypto.randomUUID())).status).toBe(201);
    const keys = Array.from({ length: 24 }, () => crypto.randomUUID());
    const answers = await Promise.all(keys.map((k, i) => upload(server.url, experiment, i % 2 ? "candidate" : "baseline", k)));
    expect(answers.map((a) => a.status)).toEqual(keys.map(() => 201));
    const stored = answers.flatMap((a) => (a.json as UploadAnswer).runs);
    for (const variant of ["baseline", "candidate"]) {
      const repetitions = stored.filter((run) => run.variant === variant).map((run) => run.repetition);
      expect(new Set(repetitions).size, `${variant}: ${repetitions.join(",")}`).toBe(12);
    }
    // Retried through the next workers: the same runs, nothing new stored.
    for (const [i, k] of keys.slice(0, 4).entries()) {
      const again = await upload(server.url, experiment, i % 2 ? "candidate" : "baseline", k);
      expect(again.status).toBe(200);
      expect((again.json as UploadAnswer).runs).toEqual((answers[i]?.json as UploadAnswer).runs);
    }
    expect(await db.run.count({ where: { experiment: { slug: experiment } } })).toBe(26);

    // Each worker computes the comparison and caches it (consecutive connections alternate)...
    const path = `/api/v1/experiments/${experiment}/comparison`;
    for (let i = 0; i < 4; i++) {
      const read = await request(server.url, "GET", path, auth());
      expect(read.status).toBe(200);
      expect(runsOf(read.json, "candidate")).toBe(13);
    }
    // ...then a run is stored through one of them, and every read through either shows it.
    expect((await upload(server.url, experiment, "candidate", crypto.randomUUID())).status).toBe(201);
    for (let i = 0; i < 4; i++) expect(runsOf((await request(server.url, "GET", path, auth())).json, "candidate")).toBe(14);
  });

  it("a worker killed alone is replaced; SIGTERM to the server stops its workers", async () => {
    const server = await startServer({ databaseUrl, env: { VERSUS_WORKERS: "2" } });
    servers.push(server);
    // Killed while still starting, a worker stops the server (a crash at start-up would loop);
    // the health check answered from one, so wait until both have said they listen.
    await eventually("both workers to listen", () => server.lines.filter((line) => line.startsWith("▲ Next.js server on")).length === 2, {
      context: () => server.tail(),
    });
    const [first, second] = workersOf(server);
    process.kill(first as number, "SIGKILL");
    const replaced = await eventually(
      "a worker to replace the killed one",
      () => {
        const pids = workersOf(server);
        return pids.length === 2 && !pids.includes(first as number) && pids;
      },
      { context: () => server.tail() },
    );
    expect(replaced).toContain(second);
    // Both answer again: the replacement once it has started (consecutive connections alternate).
    await eventually("both workers to answer", async () => {
      const statuses = [await request(server.url, "GET", "/api/health", {}), await request(server.url, "GET", "/api/health", {})].map((r) => r.status);
      return statuses.every((status) => status === 200);
    });

    expect(await server.stop("SIGTERM")).toBe(0);
    for (const pid of replaced) expect(() => process.kill(pid, 0), `worker ${pid} outlived the server`).toThrow();
  });
});
