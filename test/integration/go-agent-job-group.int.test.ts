// One load test across three Go agents (separate processes, versus-agent built as `npm start`
// builds it) against one loopback target, through this test's route server (the agent
// protocol's own route handlers on the integration database): the variant asks for agents: 3,
// each agent runs its third of the open model's rate, all start at the group's start time, and
// the server stores ONE run whose latency percentiles are those of every shard's requests
// together and whose request count is the shards' sum. A fourth agent, the reference agent (it
// runs no http), never joins. And one of three agents SIGKILLed mid-run: the group is stored
// partial (or run again, per onShardLoss), each request counted once. A pool of labelled agents
// counted at the start takes the shards, an unlabelled agent none. The grpc workload splits and
// merges the same way against the agent's bundled gRPC target. Skipped, saying so, where Go is not
// installed.
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import type { AddressInfo } from "node:net";
import { build, encodeIntoCompressedBase64 } from "hdr-histogram-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveDirectRoute } from "~/scripts/lib/direct-routes";
import { startRouteServer, type RouteServer } from "~/test/route-server";
import { spawn } from "node:child_process";
import { Child, eventually, startAgent } from "~/test/reliability/processes";
import { goAgentKit, hasGo } from "~/test/reliability/go-agent-kit";

const { db } = await import("~/server/db/client");
const { expireLease, jobsProject } = await import("~/test/agent-protocol");
const { jobWakeups } = await import("~/server/agents/wakeups");
const { startBatch } = await import("~/server/agents/batches");
const { histogramFigures, recordedValues } = await import("~/server/runs/histogram");
const { getComparison } = await import("~/server/comparison/comparison");

const kit = goAgentKit("go-agent-job-group.int.test.ts");
let server: RouteServer;
let target: http.Server;
let targetUrl = "";
let served = 0;

beforeAll(async () => {
  server = await startRouteServer(async (req, res) => {
    if (await serveDirectRoute(req, res, server.url)) return;
    res.writeHead(404).end();
  });
  target = http.createServer((_req, res) => {
    served++;
    res.writeHead(200, { "content-type": "text/plain" }).end("ok");
  });
  await new Promise<void>((resolve) => target.listen(0, "127.0.0.1", resolve));
  targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}/`;
});

afterAll(async () => {
  await server?.close();
  await new Promise((resolve) => target?.close(resolve));
  await jobWakeups().close();
  await db.$disconnect();
});

/** One histogram of every value the shards' histograms hold, recorded anew: the union of their requests. */
function unionOf(histograms: string[], scale: number) {
  const union = build({ bitBucketSize: 64, autoResize: true, numberOfSignificantValueDigits: 3 });
  for (const encoded of histograms) {
    const { values, counts } = recordedValues(encoded, scale);
    values.forEach((value, i) => union.recordValueWithCount(Math.round(value * scale), counts[i] as number));
  }
  return union;
}

/** What a shard stored for the merge: its run document. */
type ShardRun = { startedAt: string; metrics: { key: string; histogram?: string; histogramScale?: number; value?: number }[] };
const shardMetric = (run: ShardRun, key: string) => run.metrics.find((m) => m.key === key);

/** The figures of one histogram of every shard's latencies: what the merged run must show. */
function unionLatency(shardRuns: ShardRun[]) {
  const scale = shardMetric(shardRuns[0]!, "latency")?.histogramScale as number;
  const union = unionOf(
    shardRuns.map((run) => shardMetric(run, "latency")?.histogram as string),
    scale,
  );
  try {
    return histogramFigures(encodeIntoCompressedBase64(union), scale);
  } finally {
    union.destroy();
  }
}

/** `count` Go agents enrolled in the project, named `<label>-1` …, once each is ready. */
async function goAgents(project: { token: string }, label: string, count: number, env?: Record<string, string>) {
  const agents = Array.from({ length: count }, (_, i) =>
    kit.track(startAgent({ url: server.url, enrollmentToken: project.token, name: `${label}-${i + 1}`, goBinary: kit.binary(), ...(env ? { env } : {}) })),
  );
  await Promise.all(agents.map((agent) => kit.ready(agent)));
  return agents;
}

/** Run on the experiment: one batch, interleaved, on any agent. */
const runExperiment = (project: { id: string; experimentSlug: string }, maxAttempts = 1) =>
  startBatch(db, project.id, null, { experimentSlug: project.experimentSlug, order: "interleaved", labels: {}, maxAttempts });

/** Resolves once no job of the batch is queued or leased. */
const batchSettled = (batchId: string, options: { timeoutMs?: number } = {}) =>
  eventually("the batch to settle", async () => (await db.job.count({ where: { batchId, status: { in: ["queued", "leased"] } } })) === 0, {
    context: kit.context,
    ...options,
  });

describe.skipIf(!hasGo)("a load test split over three Go agents", () => {
  it("starts the shards together and stores one run merged exactly from theirs", async () => {
    const project = await jobsProject(db, "go-group", {
      measuredRuns: 1,
      variants: [{ name: "Split", isBaseline: true, config: { workload: "http", settings: { url: targetUrl, rate: 150, duration: 2 }, agents: 3 } }],
      metrics: [
        { key: "latency", unit: "ms", direction: "lower_is_better" },
        { key: "requests", unit: "count", direction: "higher_is_better" },
        { key: "throughput", unit: "req/s", direction: "higher_is_better" },
      ],
    });
    const reference = kit.track(startAgent({ url: server.url, enrollmentToken: project.token, name: "go-group-reference" }));
    await goAgents(project, "go-group", 3);
    await eventually("four agents to enroll", async () => (await db.agent.count({ where: { projectId: project.id } })) === 4, { context: kit.context });
    expect(reference.running).toBe(true);

    const batch = await runExperiment(project);
    await batchSettled(batch.id);
    const shards = await db.job.findMany({ where: { batchId: batch.id }, orderBy: { shard: "asc" }, include: { agent: true } });
    expect(
      shards.map((job) => [job.status, job.error]),
      kit.context(),
    ).toEqual([
      ["succeeded", null],
      ["succeeded", null],
      ["succeeded", null],
    ]);
    // Three different Go agents, never the reference agent.
    expect(new Set(shards.map((job) => job.agent?.name)).size).toBe(3);
    expect(shards.every((job) => job.agent?.name.startsWith("go-group-") && job.agent.kind === "go")).toBe(true);
    expect(shards.map((job) => (job.payload as { settings: { rate: number } }).settings.rate)).toEqual([50, 50, 50]);

    const runs = await db.run.findMany({ where: { experiment: { projectId: project.id } }, include: { results: { include: { metric: true } } } });
    expect(runs).toHaveLength(1);
    const result = (key: string) => runs[0]?.results.find((r) => r.metric.key === key);
    const shardRuns = shards.map((job) => job.shardRun as ShardRun);

    // Total requests: the sum of the shards' (and every one of them reached the target).
    const perShard = shardRuns.map((run) => shardMetric(run, "requests")?.value as number);
    expect(result("requests")?.mean).toBe(perShard.reduce((a, b) => a + b, 0));
    expect(result("requests")?.mean).toBe(served);

    // Merged percentiles: those of one histogram of every shard's requests.
    const unionFigures = unionLatency(shardRuns);
    const latency = result("latency");
    const figures = { p50: latency?.p50, p99: latency?.p99, p999: latency?.p999, n: Number(latency?.n) };
    expect(figures).toEqual({ p50: unionFigures?.p50, p99: unionFigures?.p99, p999: unionFigures?.p999, n: unionFigures?.n });

    // The shards started within 50 ms of each other (their own clocks; one machine here).
    const starts = shardRuns.map((run) => Date.parse(run.startedAt));
    const skew = Math.max(...starts) - Math.min(...starts);
    console.info(
      `go-agent-job-group: merged p50 ${figures.p50} ms, p99 ${figures.p99} ms, p99.9 ${figures.p999} ms over ${figures.n} requests; union p50 ${unionFigures?.p50}, p99 ${unionFigures?.p99}, p99.9 ${unionFigures?.p999}; start skew ${skew} ms; clock offsets ${shards.map((job) => job.clockOffsetMs?.toFixed(3)).join(", ")} ms`,
    );
    expect(skew).toBeLessThanOrEqual(50);
    expect(shards.every((job) => job.clockOffsetMs !== null && job.groupStartAt !== null)).toBe(true);
  });
});

describe.skipIf(!hasGo)("one of three Go agents SIGKILLed mid-run", () => {
  const latencyMetrics = [
    { key: "latency", unit: "ms", direction: "lower_is_better" },
    { key: "requests", unit: "count", direction: "higher_is_better" },
  ] as const;
  type ShardRun = { metrics: { key: string; value?: number }[] };
  const requestsOf = (run: unknown) => (run as ShardRun).metrics.find((m) => m.key === "requests")?.value as number;

  /** Three Go agents, a batch of one split run; resolves once every shard has run for a second past the group's start. */
  async function groupUnderway(label: string, onShardLoss: "fail" | "partial", maxAttempts: number) {
    const project = await jobsProject(db, label, {
      measuredRuns: 1,
      variants: [
        { name: "Split", isBaseline: true, config: { workload: "http", settings: { url: targetUrl, rate: 90, duration: 6 }, agents: 3, onShardLoss } },
      ],
      metrics: [...latencyMetrics],
    });
    const agents = await goAgents(project, label, 3);
    const batch = await runExperiment(project, maxAttempts);
    const shards = await eventually(
      "the group to be a second into its run",
      async () => {
        const jobs = await db.job.findMany({ where: { batchId: batch.id }, orderBy: { shard: "asc" }, include: { agent: true } });
        const start = jobs[0]?.groupStartAt?.getTime();
        return jobs.every((job) => job.status === "leased") && start !== undefined && Date.now() > start + 1000 && jobs;
      },
      { context: kit.context },
    );
    // The agent of the middle shard dies; the test does not wait the lease's 60 s out, it ends it.
    const victim = agents.find((agent) => agent.label === `agent ${shards[1]?.agent?.name}`) as (typeof agents)[number];
    expect(await victim.stop("SIGKILL")).toBe("SIGKILL");
    await expireLease(db, shards[1]!.id);
    return { project, batch, victim: shards[1]!.agent?.name as string };
  }

  it("partial: one run from the two survivors, marked partial naming the lost agent, each request once", async () => {
    const { project, batch, victim } = await groupUnderway("go-partial", "partial", 1);
    await batchSettled(batch.id);
    const shards = await db.job.findMany({ where: { batchId: batch.id }, orderBy: { shard: "asc" } });
    expect(
      shards.map((job) => job.status),
      kit.context(),
    ).toEqual(["succeeded", "failed", "succeeded"]);
    const runs = await db.run.findMany({ where: { experiment: { projectId: project.id } }, include: { results: { include: { metric: true } } } });
    expect(runs).toHaveLength(1);
    const requests = runs[0]?.results.find((r) => r.metric.key === "requests")?.mean;
    const survivors = [shards[0], shards[2]].map((job) => requestsOf(job?.shardRun));
    expect(requests).toBe(survivors[0]! + survivors[1]!);
    expect(Number(runs[0]?.results.find((r) => r.metric.key === "latency")?.n)).toBe(requests);
    expect(runs[0]?.warnings[0]).toMatch(new RegExp(`^partial run: measured by 2 of 3 agents — shard 2 of 3 \\(agent ${victim}\\) lost mid-run`));
    console.info(
      `go-agent-job-group (SIGKILL, partial): stored ${requests} requests from the survivors (${survivors.join(" + ")}); warning: ${runs[0]?.warnings[0]}`,
    );
  });

  it("fail with an attempt left: the group runs again on three agents and stores one run of its second attempt", async () => {
    const { project, batch } = await groupUnderway("go-retry", "fail", 2);
    // A third agent again, so the group can run on three.
    const spare = kit.track(startAgent({ url: server.url, enrollmentToken: project.token, name: "go-retry-spare", goBinary: kit.binary() }));
    await kit.ready(spare);
    await batchSettled(batch.id);
    const shards = await db.job.findMany({ where: { batchId: batch.id }, orderBy: { shard: "asc" }, include: { agent: true } });
    expect(
      shards.map((job) => [job.status, job.attempts]),
      kit.context(),
    ).toEqual([
      ["succeeded", 2],
      ["succeeded", 2],
      ["succeeded", 2],
    ]);
    expect(shards.some((job) => job.agent?.name === "go-retry-spare")).toBe(true);
    const runs = await db.run.findMany({ where: { experiment: { projectId: project.id } }, include: { results: { include: { metric: true } } } });
    expect(runs).toHaveLength(1);
    const requests = runs[0]?.results.find((r) => r.metric.key === "requests")?.mean;
    expect(requests).toBe(shards.reduce((sum, job) => sum + requestsOf(job.shardRun), 0));
    expect(runs[0]?.warnings ?? []).not.toContainEqual(expect.stringMatching(/partial/));
  });
});

describe.skipIf(!hasGo)("a split run its generators cannot keep up with", () => {
  it("says that the load generators, not the target, limited it, on the run and in the comparison", async () => {
    // 60,000 requests a second over one connection per agent: no loopback generator keeps that.
    const project = await jobsProject(db, "go-limited", {
      measuredRuns: 1,
      variants: [
        { name: "Split", isBaseline: true, config: { workload: "http", settings: { url: targetUrl, rate: 60000, maxConnections: 3, duration: 1 }, agents: 3 } },
      ],
      metrics: [{ key: "latency", unit: "ms", direction: "lower_is_better" }],
    });
    await goAgents(project, "go-limited", 3);
    const batch = await runExperiment(project);
    await batchSettled(batch.id);
    const runs = await db.run.findMany({ where: { experiment: { projectId: project.id } } });
    expect(runs, kit.context()).toHaveLength(1);
    const run = runs[0]!;
    expect(run.tags).toContain("generator-limited");
    expect(run.warnings[0]).toMatch(
      /^the load generators, not the target, limited this run: go-limited-\d \(\d+ of \d+ send slots late, CPU \d+% of \d+ cores\)/,
    );
    const generators = (
      run.environment as { agents: { agent: string; generator: { late: number; slots: number; cpuPercent: number; keptRate: boolean } }[] }
    ).agents.map((shard) => `${shard.agent}: ${shard.generator.late}/${shard.generator.slots} late, CPU ${shard.generator.cpuPercent.toFixed(0)}%`);
    console.info(`go-agent-job-group (generator-limited): ${generators.join("; ")}`);

    const comparison = await getComparison(db, { projectId: project.id }, project.experimentSlug);
    expect(comparison.metrics[0]?.reason).toContain("the load generators, not the target, limited 1 run of Split: their agents could not keep the asked rate");
  });
});

describe.skipIf(!hasGo)("two Go agents of one machine sharing its machine lock (as npm start's)", () => {
  it("run the two shards of a group together instead of holding the lock against each other", async () => {
    const project = await jobsProject(db, "go-locked", {
      measuredRuns: 1,
      variants: [{ name: "Split", isBaseline: true, config: { workload: "http", settings: { url: targetUrl, rate: 40, duration: 1 }, agents: 2 } }],
      metrics: [{ key: "requests", unit: "count", direction: "higher_is_better" }],
    });
    const lock = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "versus-lock-")), "local-agents.lock");
    await goAgents(project, "go-locked", 2, { VERSUS_AGENT_MACHINE_LOCK: lock });
    const batch = await runExperiment(project);
    // Well within the group's 60 s readiness timeout: a lock held while waiting for ready would hit it.
    await batchSettled(batch.id, { timeoutMs: 30_000 });
    const shards = await db.job.findMany({ where: { batchId: batch.id } });
    expect(
      shards.map((job) => job.status),
      kit.context(),
    ).toEqual(["succeeded", "succeeded"]);
    expect(await db.run.count({ where: { experiment: { projectId: project.id } } })).toBe(1);
  });
});

describe.skipIf(!hasGo)("a pool of labelled Go agents", () => {
  it("splits each run over the pool's agents online at the start, never an agent without its label", async () => {
    const project = await jobsProject(db, "go-pool", {
      measuredRuns: 1,
      variants: [
        {
          name: "Pooled",
          isBaseline: true,
          config: { workload: "http", settings: { url: targetUrl, rate: 40, duration: 1 }, agents: { labels: { pool: "lab" }, min: 2 } },
        },
      ],
      metrics: [{ key: "requests", unit: "count", direction: "higher_is_better" }],
    });
    await goAgents(project, "go-pool-lab", 2, { VERSUS_AGENT_LABELS: "pool=lab" });
    await goAgents(project, "go-pool-other", 1);
    const batch = await runExperiment(project);
    expect(batch.jobs).toBe(2);
    await batchSettled(batch.id, { timeoutMs: 30_000 });
    const shards = await db.job.findMany({ where: { batchId: batch.id }, orderBy: { shard: "asc" }, include: { agent: true } });
    expect(
      shards.map((job) => [job.status, job.shards, job.requiredLabels, job.agent?.name.startsWith("go-pool-lab-")]),
      kit.context(),
    ).toEqual([
      ["succeeded", 2, { pool: "lab" }, true],
      ["succeeded", 2, { pool: "lab" }, true],
    ]);
    expect(new Set(shards.map((job) => job.agentId)).size).toBe(2);
    expect(await db.run.count({ where: { experiment: { projectId: project.id } } })).toBe(1);
  });
});

describe.skipIf(!hasGo)("a gRPC load test split over two Go agents", () => {
  it("splits the call rate, and stores one run whose percentiles are those of both shards' calls", async () => {
    // The agent's own bundled target serves the gRPC payload service on a free port.
    const grpcTarget = kit.track(
      new Child("grpc target", spawn(kit.binary(), ["target", "--addr", "127.0.0.1:0", "--grpc-addr", "127.0.0.1:0", "--payload-size", "1024"])),
    );
    const address = await eventually(
      "the target to listen for gRPC",
      () => grpcTarget.lines.map((line) => /^listening for gRPC on (\S+)$/.exec(line)?.[1]).find(Boolean) ?? false,
      { context: kit.context },
    );
    const project = await jobsProject(db, "go-grpc-group", {
      measuredRuns: 1,
      variants: [
        {
          name: "Unary",
          isBaseline: true,
          config: {
            workload: "grpc",
            settings: { target: address, method: "versus.target.Payloads/Unary", data: '{"size": 1024}', model: "open", rate: 100, duration: 2 },
            agents: 2,
          },
        },
      ],
      metrics: [
        { key: "latency", unit: "ms", direction: "lower_is_better" },
        { key: "requests", unit: "count", direction: "higher_is_better" },
      ],
    });
    await goAgents(project, "go-grpc", 2);
    const batch = await runExperiment(project);
    await batchSettled(batch.id);
    const shards = await db.job.findMany({ where: { batchId: batch.id }, orderBy: { shard: "asc" }, include: { agent: true } });
    expect(
      shards.map((job) => [job.status, job.error, (job.payload as { settings: { rate: number } }).settings.rate]),
      kit.context(),
    ).toEqual([
      ["succeeded", null, 50],
      ["succeeded", null, 50],
    ]);
    expect(new Set(shards.map((job) => job.agentId)).size).toBe(2);

    const runs = await db.run.findMany({ where: { experiment: { projectId: project.id } }, include: { results: { include: { metric: true } } } });
    expect(runs).toHaveLength(1);
    const shardRuns = shards.map((job) => job.shardRun as ShardRun);
    const result = (key: string) => runs[0]?.results.find((r) => r.metric.key === key);
    const perShard = shardRuns.map((run) => shardMetric(run, "requests")?.value as number);
    expect(perShard.every((calls) => calls > 0)).toBe(true);
    expect(result("requests")?.mean).toBe(perShard[0]! + perShard[1]!);

    const unionFigures = unionLatency(shardRuns);
    const latency = result("latency");
    expect({ p50: latency?.p50, p99: latency?.p99, n: Number(latency?.n) }).toEqual({ p50: unionFigures?.p50, p99: unionFigures?.p99, n: unionFigures?.n });
    console.info(
      `go-agent-job-group (grpc): ${Number(latency?.n)} calls (${perShard.join(" + ")}), merged p50 ${latency?.p50} ms, p99 ${latency?.p99} ms; union p50 ${unionFigures?.p50}, p99 ${unionFigures?.p99}`,
    );
  });
});

describe.skipIf(!hasGo)("the open model split over three agents against a target that stalls", () => {
  it("shows the stall in the merged p99", async () => {
    // Every 2 s the target holds each answer until 500 ms into the period: requests arriving then wait.
    const PERIOD_MS = 2000;
    const STALL_MS = 500;
    const stalling = http.createServer((_req, res) => {
      const into = Date.now() % PERIOD_MS;
      setTimeout(() => res.writeHead(200).end("ok"), into < STALL_MS ? STALL_MS - into : 0);
    });
    await new Promise<void>((resolve) => stalling.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(stalling.address() as AddressInfo).port}/`;
      const project = await jobsProject(db, "go-stall", {
        measuredRuns: 1,
        variants: [{ name: "Split", isBaseline: true, config: { workload: "http", settings: { url, rate: 90, duration: 4 }, agents: 3 } }],
        metrics: [{ key: "latency", unit: "ms", direction: "lower_is_better" }],
      });
      await goAgents(project, "go-stall", 3);
      const batch = await runExperiment(project);
      await batchSettled(batch.id);
      const runs = await db.run.findMany({ where: { experiment: { projectId: project.id } }, include: { results: true } });
      expect(runs, kit.context()).toHaveLength(1);
      const latency = runs[0]!.results[0]!;
      // A quarter of the requests arrive in a stall, a fifth of those in its first 100 ms: at least
      // 5 % wait 400 ms or more, whatever the machine's speed, so the p99 must be at least that.
      console.info(
        `go-agent-job-group (stall ${STALL_MS} ms every ${PERIOD_MS} ms, 90 req/s over 3 agents): merged p50 ${latency.p50} ms, p99 ${latency.p99} ms, max ${latency.max} ms over ${latency.n} requests`,
      );
      expect(latency.p99).toBeGreaterThanOrEqual(STALL_MS - 100);
      // Most requests do not meet the stall: the median stays far below it.
      expect(latency.p50).toBeLessThan(STALL_MS - 100);
    } finally {
      await new Promise((resolve) => stalling.close(resolve));
    }
  });
});
