// Faults: request bodies over the limit (VERSUS_MAX_BODY_BYTES, 1 MB here) sent to a real server
// process — uploads and imports, which Next.js serves, and an agent's complete, which the server
// in front of Next.js serves itself (scripts/lib/direct-routes.ts) — with a Content-Length over
// the limit, with a chunked body that passes it, and with a Content-Length of gigabytes of which
// little is ever sent. Each must be answered 413 with the limit in the message, and the client
// must get that answer (not a reset connection); nothing is written, and the same connection or
// a new one is served normally afterwards.
import crypto from "node:crypto";
import http from "node:http";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createPrismaClient } from "~/server/db/client";
import { createApiKey } from "~/server/projects/api-keys";
import { rawPost, type RawAnswer } from "~/test/raw-post";
import { jobsOf, runBatch, sleepProject, type TestProject } from "./fixtures";
import { startServer, type Child } from "./processes";

const LIMIT = 1024 * 1024;
const databaseUrl = inject("databaseUrl");
const db = createPrismaClient(databaseUrl);
let server: Child & { url: string };
let project: TestProject;
let apiKey: string;
let agentCredential: string;
let job: { id: string; leaseToken: string };

beforeAll(async () => {
  project = await sleepProject(db, "body-limit", { sleepMs: 10 });
  apiKey = (await createApiKey(db, project.slug, "body limit")).secret;
  server = await startServer({ databaseUrl, env: { VERSUS_MAX_BODY_BYTES: String(LIMIT) } });
  // An agent holding a leased job, to complete it with too large a result.
  const registered = await fetch(`${server.url}/api/v1/agents/register`, {
    method: "POST",
    headers: { authorization: `Bearer ${project.token}`, "content-type": "application/json" },
    body: JSON.stringify({
      name: "body-limit",
      kind: "other",
      version: "1",
      workloads: [{ name: "sleep", description: "", settingsSchema: { type: "object" } }],
    }),
  });
  agentCredential = ((await registered.json()) as { credential: string }).credential;
  await runBatch(db, project, ["A"]);
  const claimed = await fetch(`${server.url}/api/v1/jobs/claim?wait=0`, { method: "POST", headers: { authorization: `Bearer ${agentCredential}` } });
  job = ((await claimed.json()) as { job: { id: string; leaseToken: string } }).job;
});
afterAll(async () => {
  await server?.stop("SIGTERM");
  await db.$disconnect();
});

type Sending = "content-length" | "chunked" | "declared only";

/**
 * POSTs a body of LIMIT + 64 KB: with its Content-Length, chunked (64 KB chunks), or declaring
 * 10 GB and sending one chunk, then waiting for the answer.
 */
function postOversized(path: string, headers: Record<string, string>, sending: Sending, agent?: http.Agent): Promise<RawAnswer> {
  const chunk = Buffer.alloc(64 * 1024, "1");
  const chunks = (LIMIT + chunk.length) / chunk.length;
  if (sending === "declared only") return rawPost(`${server.url}${path}`, { headers, agent, chunk, chunks: 1, contentLength: 10 * 1024 ** 3 });
  return rawPost(`${server.url}${path}`, { headers, agent, chunk, chunks, contentLength: sending === "content-length" ? chunks * chunk.length : undefined });
}

function expect413(answer: RawAnswer) {
  expect(answer, answer instanceof Error ? `${answer.message}\n${server.tail()}` : answer.body).not.toBeInstanceOf(Error);
  const { status, body } = answer as { status: number; body: string };
  expect(status, body).toBe(413);
  expect(JSON.parse(body)).toEqual({ error: { code: "PAYLOAD_TOO_LARGE", message: "Request body is larger than the limit of 1 MB (VERSUS_MAX_BODY_BYTES)" } });
}

const routes = [
  {
    name: "an upload (POST /api/v1/results)",
    path: (experiment: string) => `/api/v1/results?e=${experiment}`,
    headers: () => ({ authorization: `Bearer ${apiKey}`, "content-type": "application/json" }),
  },
  {
    name: "an import (POST /api/v1/imports)",
    path: (experiment: string) => `/api/v1/imports?format=csv&experiment=${experiment}&create=true`,
    headers: () => ({ authorization: `Bearer ${apiKey}`, "content-type": "text/csv" }),
  },
  {
    name: "an agent's complete (POST /api/v1/jobs/{id}/complete)",
    path: () => `/api/v1/jobs/${job.id}/complete`,
    headers: () => ({ authorization: `Bearer ${agentCredential}`, "content-type": "application/json" }),
  },
];

describe("a body over VERSUS_MAX_BODY_BYTES sent to a real server", () => {
  for (const route of routes) {
    for (const sending of ["content-length", "chunked", "declared only"] as const) {
      it(`${route.name}, ${sending === "declared only" ? "a Content-Length of 10 GB, little of it sent" : sending === "chunked" ? "chunked past the limit" : "a Content-Length over the limit"} → 413 naming the limit; nothing written; the server goes on`, async () => {
        const experiment = `limit-${crypto.randomBytes(3).toString("hex")}`;
        const runsBefore = await db.run.count({ where: { experiment: { projectId: project.id } } });
        const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
        try {
          expect413(await postOversized(route.path(experiment), route.headers(), sending, agent));
          // The same client goes on: a small call answers as usual.
          const next = await new Promise<number>((resolve, reject) => {
            http
              .get(`${server.url}/api/health`, { agent }, (response) => {
                response.resume();
                resolve(response.statusCode ?? 0);
              })
              .on("error", reject);
          });
          expect(next).toBe(200);
        } finally {
          agent.destroy();
        }
        expect(await db.experiment.count({ where: { projectId: project.id, slug: experiment } })).toBe(0);
        expect(await db.run.count({ where: { experiment: { projectId: project.id } } })).toBe(runsBefore);
        const [held] = await jobsOf(db, project);
        expect(held).toMatchObject({ id: job.id, status: "leased", runId: null });
        expect(server.running).toBe(true);
      });
    }
  }
});
