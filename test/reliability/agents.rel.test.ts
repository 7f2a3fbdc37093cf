// Reliability of job dispatch with real processes: Versus web servers (`next start` on the
// production build) on one PostgreSQL, and reference agents (agents/reference) as child
// processes that the tests SIGKILL, stop and restart. What must hold: a job whose agent died
// runs elsewhere once its lease expires and stores one run; a server restart loses nothing the
// agent measured; with two servers and four agents every job runs exactly once.
import { afterAll, afterEach, describe, expect, inject, it } from "vitest";
import { createPrismaClient } from "~/server/db/client";
import { createApiKey } from "~/server/projects/api-keys";
import { gzipRunnable } from "~/server/examples/data/gzip-runnable";
import type { TComparison } from "~/server/schemas/comparison";
import { jobsOf, projectWithExperiment, runBatch, sleepProject, type TestProject } from "./fixtures";
import { eventually, startAgent, startServer, type Child } from "./processes";

const databaseUrl = inject("databaseUrl");
const db = createPrismaClient(databaseUrl);
const children: Child[] = [];

function track<T extends Child>(child: T): T {
  children.push(child);
  return child;
}
/** Every process's last lines, for a failure message. */
const context = () => children.map((child) => child.tail()).join("\n");

afterEach(async () => {
  // Agents first (they may still talk to a server), then servers.
  const agents = children.filter((child) => child.label.startsWith("agent"));
  await Promise.all(agents.map((agent) => agent.stop("SIGTERM")));
  await Promise.all(children.splice(0).map((child) => child.stop("SIGTERM")));
});
afterAll(() => db.$disconnect());

const startedJob = (agent: Child, jobId: string) => agent.lines.filter((line) => line.includes("event=job.started") && line.includes(`job=${jobId}`)).length;
const ready = (agent: Child) => eventually(`${agent.label} to be ready`, () => agent.lines.some((line) => line.includes("event=agent.ready")), { context });

async function allSucceeded(project: TestProject, count: number) {
  return eventually(
    `all ${count} jobs to succeed`,
    async () => {
      const jobs = await jobsOf(db, project);
      return jobs.length === count && jobs.every((job) => job.status === "succeeded") && jobs;
    },
    { timeoutMs: 180_000, context: () => `${context()}` },
  );
}

describe("job dispatch with real servers and agents", () => {
  it("an agent killed with SIGKILL mid-job: once the lease expires the job runs on another agent, and one run is stored", async () => {
    const project = await sleepProject(db, "sigkill", { sleepMs: 4_000 });
    // The lease is the server's (60 s, server/agents/timing.ts): the second agent gets the job when it runs out.
    const server = track(await startServer({ databaseUrl }));
    const first = track(startAgent({ url: server.url, enrollmentToken: project.token, name: "first" }));
    await ready(first);
    await runBatch(db, project, ["A"]);
    const [job] = await eventually(
      "the first agent to start the job",
      async () => {
        const jobs = await jobsOf(db, project);
        return jobs.length === 1 && startedJob(first, jobs[0]!.id) === 1 && jobs;
      },
      { context },
    );

    expect(await first.stop("SIGKILL")).toBe("SIGKILL");
    const second = track(startAgent({ url: server.url, enrollmentToken: project.token, name: "second" }));

    const [done] = await allSucceeded(project, 1);
    expect(done).toMatchObject({ id: job!.id, attempts: 2, agent: { name: "second" } });
    const runs = await db.run.findMany({ where: { experiment: { projectId: project.id } }, select: { id: true } });
    expect(runs.map((run) => run.id)).toEqual([done!.runId]);
    expect(startedJob(second, job!.id)).toBe(1);
  });

  it("a server restarted mid-job: the agent reconnects and delivers its result; nothing is lost", async () => {
    const project = await sleepProject(db, "restart", { sleepMs: 3_000, measuredRuns: 2 });
    const server = track(await startServer({ databaseUrl }));
    const agent = track(startAgent({ url: server.url, enrollmentToken: project.token, name: "steady" }));
    await ready(agent);
    await runBatch(db, project);
    const first = await eventually(
      "the agent to start a job",
      async () => {
        const jobs = await jobsOf(db, project);
        return jobs.find((job) => startedJob(agent, job.id) === 1);
      },
      { context },
    );

    expect(await server.stop("SIGKILL")).toBe("SIGKILL");
    // The job ends while no server answers: its result waits on disk and complete is retried.
    await eventually(
      "the agent to retry complete while the server is down",
      () => agent.lines.some((line) => line.includes("event=api.retry") && line.includes("call=complete")),
      { context },
    );
    track(await startServer({ databaseUrl, port: server.port }));

    const jobs = await allSucceeded(project, 4);
    expect(jobs.map((job) => job.attempts)).toEqual([1, 1, 1, 1]);
    expect(jobs.find((job) => job.id === first.id)?.runId).toEqual(expect.any(String));
    const runs = await db.run.findMany({ where: { experiment: { projectId: project.id } }, select: { id: true } });
    expect(runs.map((run) => run.id).sort()).toEqual(jobs.map((job) => job.runId).sort());
    for (const job of jobs) expect(startedJob(agent, job.id)).toBe(1);
    expect(agent.running).toBe(true);
  });

  it("two server processes on one database, four agents: every job runs exactly once", async () => {
    const project = await sleepProject(db, "fleet", { sleepMs: 500, warmupRuns: 1, measuredRuns: 8 });
    const servers = [track(await startServer({ databaseUrl })), track(await startServer({ databaseUrl }))];
    const agents = [0, 1, 2, 3].map((i) => track(startAgent({ url: servers[i % 2]!.url, enrollmentToken: project.token, name: `fleet-${i}` })));
    await Promise.all(agents.map(ready));

    const batch = await runBatch(db, project);
    expect(batch.jobs).toBe(18);
    const jobs = await allSucceeded(project, 18);

    // Each job started once, on one agent, on its first attempt.
    for (const job of jobs) {
      expect(
        agents.map((agent) => startedJob(agent, job.id)).reduce((a, b) => a + b),
        job.id,
      ).toBe(1);
      expect(job.attempts).toBe(1);
    }
    // One run per measured job; warm-ups store none.
    const measured = jobs.filter((job) => !job.warmup);
    expect(measured).toHaveLength(16);
    expect(jobs.filter((job) => job.warmup).map((job) => job.runId)).toEqual([null, null]);
    const runs = await db.run.findMany({ where: { experiment: { projectId: project.id } }, select: { id: true } });
    expect(runs.map((run) => run.id).sort()).toEqual(measured.map((job) => job.runId).sort());
    // Both servers handed out work (a batch started on neither of them woke agents on both).
    const ranOn = (server: number) => agents.filter((_, i) => i % 2 === server).some((agent) => agent.lines.some((line) => line.includes("event=job.started")));
    expect([ranOn(0), ranOn(1)]).toEqual([true, true]);
  });

  it("the runnable example end to end: Run, a reference agent runs it, the comparison shows Plain and Gzip", async () => {
    const project = await projectWithExperiment(db, "runnable", gzipRunnable.definition);
    const server = track(await startServer({ databaseUrl }));
    const agent = track(startAgent({ url: server.url, enrollmentToken: project.token, name: "runner" }));
    await ready(agent);
    const batch = await runBatch(db, project);
    expect(batch.jobs).toBe(12);
    await allSucceeded(project, 12);

    const key = await createApiKey(db, project.slug, "reliability");
    const response = await fetch(`${server.url}/api/v1/experiments/${project.experimentSlug}/comparison`, {
      headers: { authorization: `Bearer ${key.secret}` },
    });
    expect(response.status).toBe(200);
    const comparison = (await response.json()) as TComparison;
    expect(comparison.variants).toEqual([
      { name: "Plain", isBaseline: true, runs: 5 },
      { name: "Gzip", isBaseline: false, runs: 5 },
    ]);
    const bytes = comparison.metrics.find((metric) => metric.key === "payload_bytes");
    expect(bytes?.comparison?.comparisons.map((c) => [c.candidate, c.verdict])).toEqual([["Gzip", "better"]]);
    const time = comparison.metrics.find((metric) => metric.key === "compress_time");
    expect(time?.comparison?.comparisons.map((c) => c.candidate)).toEqual(["Gzip"]);
    const run = await db.run.findFirstOrThrow({ where: { experiment: { projectId: project.id } } });
    expect(run.environment).toMatchObject({ node: expect.any(String), cpuModel: expect.any(String), workload: { name: "gzip" } });
  });
});
