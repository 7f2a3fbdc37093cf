// Faults: PostgreSQL stopped (fast shutdown) and crashed (SIGKILL of the postmaster) while
// uploaders post results, the CLI uploads a file and agents claim and complete jobs, all against
// one real server process (scripts/serve.ts on the production build). What must hold: the server
// keeps running and recovers by itself once PostgreSQL is back; while it is away every call is
// answered 503 with Retry-After and the API's JSON error body (never a 500, never a dropped
// connection); the clients retry; and every upload answered 2xx and every job completed is in
// the database exactly once afterwards.
import { spawn } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { buildGoAgent, goAvailable } from "~/scripts/lib/go-agent-build";
import { createPrismaClient, type Db } from "~/server/db/client";
import { createApiKey } from "~/server/projects/api-keys";
import { startOwnDatabase, type OwnDatabase } from "~/test/own-database";
import { jobsOf, runBatch, sleepProject, type TestProject } from "./fixtures";
import { Child, eventually, startAgent, startServer } from "./processes";

let database: OwnDatabase;
let db: Db;
let goBinary: string | undefined;
const children: Child[] = [];
let uploaders: ReturnType<typeof startUploaders> | undefined;
const track = <T extends Child>(child: T): T => (children.push(child), child);
const context = () => children.map((child) => child.tail()).join("\n");

beforeAll(async () => {
  database = await startOwnDatabase();
  db = createPrismaClient(database.url);
  // The Go agent too, where Go is installed (the reference agent runs everywhere).
  if (goAvailable()) {
    const built = await buildGoAgent(path.resolve(import.meta.dirname, "../.."), "test");
    if ("binary" in built) goBinary = built.binary;
  }
});
afterEach(async () => {
  await uploaders?.abort();
  uploaders = undefined;
  await database.start(); // after a test that failed while it was down
  const agents = children.filter((child) => child.label.startsWith("agent"));
  await Promise.all(agents.map((agent) => agent.stop("SIGTERM")));
  await Promise.all(children.splice(0).map((child) => child.stop("SIGTERM")));
});
afterAll(async () => {
  await db?.$disconnect();
  await database?.remove();
});

/** One answer an uploader got while the database was away or back. */
interface Answer {
  status: number;
  retryAfter: string | null;
  contentType: string | null;
  body: string;
}

/**
 * Uploaders: `concurrency` loops, each posting one-run uploads (tagged with their own id) with an
 * Idempotency-Key and retrying each until it is answered 2xx, waiting Retry-After on a 503 as a
 * client should. Anything but 2xx and 503 is kept as unexpected, and so is a dropped connection.
 */
function startUploaders(server: { url: string }, key: string, experiment: string, concurrency: number) {
  const acknowledged = new Map<string, string>(); // upload id → stored run id
  const unavailable: Answer[] = [];
  const unexpected: (Answer | string)[] = [];
  let stopping = false;
  let next = 0;
  const abort = new AbortController();
  async function uploadOnce(id: string) {
    const body = JSON.stringify({
      experiment,
      create: true,
      runs: [{ variant: "uploaded", tags: [id], metrics: [{ key: "latency_ms", unit: "ms", direction: "lower_is_better", samples: [1, 2, 3, 4, 5] }] }],
    });
    while (!abort.signal.aborted) {
      let answer: Answer;
      try {
        const response = await fetch(`${server.url}/api/v1/results`, {
          method: "POST",
          headers: { authorization: `Bearer ${key}`, "content-type": "application/json", "idempotency-key": id },
          body,
          signal: abort.signal,
        });
        answer = {
          status: response.status,
          retryAfter: response.headers.get("retry-after"),
          contentType: response.headers.get("content-type"),
          body: await response.text(),
        };
      } catch (error) {
        if (abort.signal.aborted) return;
        unexpected.push(`${id}: ${String((error as Error).cause ?? error)}`);
        await new Promise((resolve) => setTimeout(resolve, 500));
        continue;
      }
      const response = { ok: answer.status >= 200 && answer.status < 300, status: answer.status };
      if (response.ok) {
        acknowledged.set(id, (JSON.parse(answer.body) as { runs: { id: string }[] }).runs[0]!.id);
        return;
      }
      if (response.status !== 503) {
        unexpected.push(answer);
        return;
      }
      unavailable.push(answer);
      await new Promise((resolve) => setTimeout(resolve, Number(answer.retryAfter ?? 1) * 1000));
    }
  }
  const loops = Array.from({ length: concurrency }, async () => {
    while (!stopping && !abort.signal.aborted) await uploadOnce(`upload-${next++}-${crypto.randomBytes(3).toString("hex")}`);
  });
  return {
    acknowledged,
    unavailable,
    unexpected,
    /** Lets every loop finish the upload it is on (retrying until it is acknowledged), then stop. */
    async stop() {
      stopping = true;
      await Promise.all(loops);
    },
    /** Gives up at once (a failed test's clean-up). */
    async abort() {
      abort.abort();
      await Promise.all(loops);
    },
  };
}

const ready = (agent: Child) => eventually(`${agent.label} to be ready`, () => agent.lines.some((line) => line.includes("event=agent.ready")), { context });
const succeeded = async (project: TestProject) => (await jobsOf(db, project)).filter((job) => job.status === "succeeded").length;
/** "503" as a status, not inside a port or an id (a URL on 127.0.0.1:35037 is no answer). */
const says503 = (line: string) => /(?<![\d:])503(?!\d)/.test(line);
/** The agent's retries of a call the server answered 503 (the agents log each retry with the error). */
const retried503 = (agent: Child) => agent.lines.filter((line) => line.includes("api.retry") && says503(line)).length;

async function health(url: string) {
  const response = await fetch(`${url}/api/health`);
  return { status: response.status, body: (await response.json()) as { database: { status: string } } };
}

/** Every upload answered 2xx is stored once (its tag on exactly one run, the run it was answered with); nothing else was. */
async function expectUploadsExactlyOnce(project: TestProject, acknowledged: Map<string, string>) {
  const runs = await db.run.findMany({ where: { experiment: { projectId: project.id, slug: "uploads" } }, select: { id: true, tags: true } });
  const byTag = new Map<string, string[]>();
  for (const run of runs) for (const tag of run.tags) byTag.set(tag, [...(byTag.get(tag) ?? []), run.id]);
  for (const [id, runId] of acknowledged) expect(byTag.get(id), id).toEqual([runId]);
  expect(runs.length).toBe(acknowledged.size);
}

/** Every job succeeded on its first attempt with one run of its own, and there are no other runs. */
async function expectJobsExactlyOnce(project: TestProject, count: number) {
  const jobs = await eventually(
    `all ${count} jobs to succeed`,
    async () => {
      const all = await jobsOf(db, project);
      return all.length === count && all.every((job) => job.status === "succeeded") && all;
    },
    { timeoutMs: 180_000, context },
  );
  const runs = await db.run.findMany({ where: { experiment: { projectId: project.id, slug: project.experimentSlug } }, select: { id: true } });
  expect(runs.map((run) => run.id).sort()).toEqual(jobs.map((job) => job.runId).sort());
  expect(new Set(jobs.map((job) => job.runId)).size).toBe(count);
}

function writeUpload(tag: string): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "versus-faults-cli-")), "results.json");
  fs.writeFileSync(
    file,
    JSON.stringify({
      experiment: "uploads",
      create: true,
      runs: [{ variant: "cli", tags: [tag], metrics: [{ key: "latency_ms", unit: "ms", direction: "lower_is_better", samples: [7, 8, 9] }] }],
    }),
  );
  return file;
}

describe("PostgreSQL restarted under uploads and job claims", () => {
  for (const fault of ["stopped (fast shutdown)", "crashed (SIGKILL)"] as const) {
    it(`${fault}: 503 with Retry-After while it is away, the server recovers by itself, nothing acknowledged is lost or doubled`, async () => {
      const project = await sleepProject(db, `pg-${fault.startsWith("stopped") ? "stop" : "kill"}`, { sleepMs: 150, measuredRuns: 12 });
      const key = (await createApiKey(db, project.slug, "faults")).secret;
      const server = track(await startServer({ databaseUrl: database.url }));
      const agents = [track(startAgent({ url: server.url, enrollmentToken: project.token, name: "ts" }))];
      if (goBinary) agents.push(track(startAgent({ url: server.url, enrollmentToken: project.token, name: "go", goBinary })));
      await Promise.all(agents.map(ready));
      const batch = await runBatch(db, project);
      uploaders = startUploaders(server, key, "uploads", 6);
      const { acknowledged, unavailable, unexpected } = uploaders;
      await eventually("uploads and jobs to be under way", async () => acknowledged.size >= 10 && (await succeeded(project)) >= 2, { context });

      const downAt = Date.now();
      if (fault.startsWith("stopped")) await database.stop();
      else await database.kill();
      // The CLI uploads while the database is away: it must wait and retry, not fail.
      const cliTag = `cli-${crypto.randomBytes(3).toString("hex")}`;
      const cli = track(
        new Child(
          "versus upload",
          spawn(process.execPath, ["scripts/cli/bin.mjs", "upload", writeUpload(cliTag)], {
            cwd: path.resolve(import.meta.dirname, "../.."),
            stdio: ["ignore", "pipe", "pipe"],
            env: { ...process.env, VERSUS_URL: server.url, VERSUS_API_KEY: key },
          }),
        ),
      );
      await eventually(
        "uploads, the CLI and the agents to be told 503 while the database is away",
        async () => {
          const answers = unavailable.length;
          return answers >= 6 && cli.lines.some(says503) && agents.every((agent) => retried503(agent) > 0);
        },
        {
          context: () =>
            `${unexpected
              .slice(0, 5)
              .map((answer) => JSON.stringify(answer))
              .join("\n")}\n${context()}`,
        },
      );
      expect(await health(server.url)).toMatchObject({ status: 503, body: { database: { status: "unreachable" } } });

      await database.start();
      // The server, never restarted, answers again; everyone gets through.
      await eventually("the server to find the database again", async () => (await health(server.url)).status === 200, { context });
      const acknowledgedAtRestart = acknowledged.size;
      await eventually("uploads to go through again", () => acknowledged.size >= acknowledgedAtRestart + 10, { context });
      await uploaders.stop();
      const cliExit = await cli.exit();
      expect(server.running).toBe(true);

      expect(unexpected).toEqual([]);
      for (const answer of unavailable) {
        expect(answer.retryAfter).toMatch(/^[1-9][0-9]*$/);
        expect(answer.contentType).toContain("application/json");
        expect(JSON.parse(answer.body)).toEqual({ error: { code: "UNAVAILABLE", message: expect.stringContaining("database") } });
      }
      expect(cliExit, cli.tail()).toBe(0);
      expect(
        cli.lines.filter(says503).every((line) => /^versus: 503 Service Unavailable: The database is unavailable.*; retrying in \d+ s$/.test(line)),
        cli.tail(),
      ).toBe(true);
      const cliRuns = await db.run.findMany({ where: { tags: { has: cliTag } }, select: { id: true } });
      expect(cliRuns).toHaveLength(1);

      // For the figures in docs/reliability.md ("Faults").
      const outageSeconds = (Date.now() - downAt) / 1000;
      console.log(
        `faults: PostgreSQL ${fault}: ${unavailable.length} uploads answered 503 (Retry-After ${unavailable[0]?.retryAfter} s), ${acknowledged.size} acknowledged and stored once, ${batch.jobs} jobs done once by ${agents.length} agents (${agents.map((agent) => `${agent.label}: ${retried503(agent)} retries after 503`).join(", ")}); ${Math.round(outageSeconds)} s from the fault to the end`,
      );
      await expectJobsExactlyOnce(project, batch.jobs);
      await expectUploadsExactlyOnce(project, new Map([...acknowledged, [cliTag, cliRuns[0]!.id]]));
      for (const agent of agents) expect(agent.running, agent.tail()).toBe(true);
      // Nothing the server logged was an unexplained failure.
      expect(
        server.lines.filter((line) => /REST request failed|failed:/.test(line)),
        server.tail(),
      ).toEqual([]);
    });
  }
});
