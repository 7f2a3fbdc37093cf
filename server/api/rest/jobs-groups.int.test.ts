// A variant whose workload asks for several agents is queued as job groups, on a real, migrated
// PostgreSQL: each of its jobs is N shards with their shares of the load; every shard goes to a
// different agent that offers `shards`; an agent lacking it never joins.
import { build, encodeIntoCompressedBase64 } from "hdr-histogram-js";
import { afterAll, describe, expect, it } from "vitest";
import { db } from "~/server/db/client";
import { histogramFigures } from "~/server/runs/histogram";
import { mulberry32 } from "~/server/stats/prng";
import { agentApi, batchOf, claimed, goodRun, jobsProject, registeredAgent, type JobsProject } from "~/test/agent-protocol";

afterAll(() => db.$disconnect());

/** The advert of a "noop" load workload whose rate and connections are load settings. */
const splitNoop = {
  name: "noop",
  settingsSchema: {
    type: "object",
    properties: {
      rate: { type: "number", "x-versus-split": true },
      connections: { type: "integer", minimum: 1, default: 10, "x-versus-split": true },
      url: { type: "string" },
    },
  },
};

async function groupProject(label: string, settings: Record<string, unknown>, agents = 3): Promise<JobsProject> {
  return jobsProject(db, label, {
    measuredRuns: 1,
    variants: [{ name: "Split", isBaseline: true, config: { workload: "noop", settings, agents } }],
  });
}

describe("job groups", () => {
  it("queues one group of N shards per job, each with its share, for agents offering shards", async () => {
    const project = await groupProject("groups-queue", { rate: 300, connections: 10, url: "http://127.0.0.1:1/" });
    // An agent that runs noop but not shards: advertising the workload lets the batch split it, and it never gets a shard.
    const lacking = await registeredAgent(project, { capabilities: ["noop"], workloads: [splitNoop] });
    const batch = await batchOf(db, project);
    expect(batch.jobs).toBe(3);
    const jobs = await db.job.findMany({ where: { batchId: batch.id }, orderBy: { position: "asc" } });
    expect(jobs.map((job) => [job.shard, job.shards, job.capabilities])).toEqual([
      [0, 3, ["noop", "shards"]],
      [1, 3, ["noop", "shards"]],
      [2, 3, ["noop", "shards"]],
    ]);
    expect(new Set(jobs.map((job) => job.groupId)).size).toBe(1);
    expect(jobs.map((job) => (job.payload as { settings: unknown }).settings)).toEqual([
      { rate: 100, connections: 4, url: "http://127.0.0.1:1/" },
      { rate: 100, connections: 3, url: "http://127.0.0.1:1/" },
      { rate: 100, connections: 3, url: "http://127.0.0.1:1/" },
    ]);

    expect((await agentApi.claim(lacking.credential, 0)).status).toBe(204);

    const agents = await Promise.all([1, 2, 3].map(() => registeredAgent(project, { capabilities: ["noop", "shards"], workloads: [splitNoop] })));
    const first = await claimed(agents[0]!);
    expect(first.group).toEqual({ id: jobs[0]?.groupId, shard: 0, shards: 3 });
    expect(first.workload.settings).toEqual({ rate: 100, connections: 4, url: "http://127.0.0.1:1/" });
    // One agent, one share: the other shards wait for other agents.
    expect((await agentApi.claim(agents[0]!.credential, 0)).status).toBe(204);
    const second = await claimed(agents[1]!);
    const third = await claimed(agents[2]!);
    expect([second.group?.shard, third.group?.shard]).toEqual([1, 2]);
    expect((await agentApi.claim(lacking.credential, 0)).status).toBe(204);
  });

  it("refuses a split the load cannot take, naming the setting, and writes nothing", async () => {
    const project = await groupProject("groups-too-small", { connections: 2 });
    await registeredAgent(project, { capabilities: ["noop", "shards"], workloads: [splitNoop] });
    await expect(batchOf(db, project)).rejects.toThrow("connections 2 cannot be split over 3 agents: each needs at least 1 (give at least 3)");
    expect(await db.job.count({ where: { projectId: project.id } })).toBe(0);
  });

  it("refuses to split a workload that marks no load setting", async () => {
    const project = await groupProject("groups-unmarked", { size: 1 }, 2);
    await registeredAgent(project, {
      capabilities: ["noop", "shards"],
      workloads: [{ name: "noop", settingsSchema: { type: "object", properties: { size: { type: "integer" } } } }],
    });
    await expect(batchOf(db, project)).rejects.toThrow(
      'Variant "Split" asks for 2 agents, but workload "noop" marks no load setting (x-versus-split) to share among them: set agents to 1',
    );
  });

  it("refuses a split variant that gives none of its load settings", async () => {
    const project = await groupProject("groups-no-load", { url: "http://127.0.0.1:1/" }, 2);
    await registeredAgent(project, { capabilities: ["noop", "shards"], workloads: [splitNoop] });
    await expect(batchOf(db, project)).rejects.toThrow(
      'Variant "Split" asks for 2 agents: give the load to share among them (rate, connections) in its settings',
    );
  });
});

describe("a job group's synchronized start", () => {
  async function claimedGroup(label: string, maxAttempts = 3) {
    const project = await groupProject(label, { rate: 300 });
    const agents = await Promise.all(
      [1, 2, 3].map((i) => registeredAgent(project, { name: `${label}-${i}`, capabilities: ["noop", "shards"], workloads: [splitNoop] })),
    );
    await batchOf(db, project, { maxAttempts });
    const jobs = [];
    for (const agent of agents) jobs.push(await claimed(agent));
    return { project, agents, jobs };
  }

  it("answers every shard the same start time once all are ready, and records each agent's clock offset", async () => {
    const { agents, jobs } = await claimedGroup("groups-start");
    const first = await agentApi.ready(agents[0]!.credential, jobs[0]!.id, { leaseToken: jobs[0]!.leaseToken, clockOffsetMs: 3.5 });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toMatchObject({ startAt: null, ready: 1, shards: 3 });
    expect(first.body.waitingFor).toEqual(["shard 2 of 3 (agent groups-start-2): not ready", "shard 3 of 3 (agent groups-start-3): not ready"]);

    await agentApi.ready(agents[1]!.credential, jobs[1]!.id, { leaseToken: jobs[1]!.leaseToken, clockOffsetMs: -12 });
    const before = Date.now();
    const last = await agentApi.ready(agents[2]!.credential, jobs[2]!.id, { leaseToken: jobs[2]!.leaseToken });
    expect(last.body).toMatchObject({ ready: 3, waitingFor: [] });
    const startAt = Date.parse(last.body.startAt as string);
    expect(startAt).toBeGreaterThan(before);
    // The others hear the same instant on their next call.
    const again = await Promise.all([0, 1].map((i) => agentApi.ready(agents[i]!.credential, jobs[i]!.id, { leaseToken: jobs[i]!.leaseToken })));
    expect(again.map((reply) => reply.body.startAt)).toEqual([last.body.startAt, last.body.startAt]);
    const stored = await db.job.findMany({ where: { groupId: jobs[0]!.group?.id }, orderBy: { shard: "asc" } });
    expect(stored.map((job) => job.clockOffsetMs)).toEqual([3.5, -12, null]);
    expect(new Set(stored.map((job) => job.groupStartAt?.toISOString()))).toEqual(new Set([last.body.startAt]));
  });

  it("gives the group back, naming the agent it waited for, when a shard is not ready in time", async () => {
    const { agents, jobs } = await claimedGroup("groups-timeout");
    for (const i of [0, 1]) await agentApi.ready(agents[i]!.credential, jobs[i]!.id, { leaseToken: jobs[i]!.leaseToken });
    await db.job.updateMany({ where: { groupId: jobs[0]!.group?.id, readyAt: { not: null } }, data: { readyAt: new Date(Date.now() - 61_000) } });
    const late = await agentApi.ready(agents[0]!.credential, jobs[0]!.id, { leaseToken: jobs[0]!.leaseToken });
    expect(late.status).toBe(409);
    expect(late.body.error.message).toBe(
      "the job group's 3 shards were not all ready within 60 s: waited for shard 3 of 3 (agent groups-timeout-3): not ready; the group is queued again",
    );
    const stored = await db.job.findMany({ where: { groupId: jobs[0]!.group?.id }, orderBy: { shard: "asc" } });
    expect(stored.map((job) => [job.status, job.readyAt])).toEqual([
      ["queued", null],
      ["queued", null],
      ["queued", null],
    ]);
    // Given back: its agent's next call about it is refused.
    expect((await agentApi.ready(agents[2]!.credential, jobs[2]!.id, { leaseToken: jobs[2]!.leaseToken })).status).toBe(409);
  });

  it("fails the group when a shard not ready in time has no attempt left", async () => {
    const { agents, jobs } = await claimedGroup("groups-exhausted", 1);
    await agentApi.ready(agents[0]!.credential, jobs[0]!.id, { leaseToken: jobs[0]!.leaseToken });
    await db.job.updateMany({ where: { groupId: jobs[0]!.group?.id, readyAt: { not: null } }, data: { readyAt: new Date(Date.now() - 61_000) } });
    const late = await agentApi.ready(agents[0]!.credential, jobs[0]!.id, { leaseToken: jobs[0]!.leaseToken });
    expect(late.body.error.message).toMatch(
      /waited for shard 2 of 3 \(agent groups-exhausted-2\): not ready; shard 3 of 3 \(agent groups-exhausted-3\): not ready; no attempt left, so the group failed$/,
    );
    expect((await db.job.findMany({ where: { groupId: jobs[0]!.group?.id } })).map((job) => job.status)).toEqual(["failed", "failed", "failed"]);
  });

  it("refuses ready for a job that is not a shard", async () => {
    const project = await jobsProject(db, "groups-lone", { measuredRuns: 1 });
    const agent = await registeredAgent(project);
    await batchOf(db, project);
    const job = await claimed(agent);
    const reply = await agentApi.ready(agent.credential, job.id, { leaseToken: job.leaseToken });
    expect(reply.status).toBe(400);
    expect(reply.body.error.message).toBe(`Job "${job.id}" is not a shard of a job group: run it without calling ready`);
  });
});

describe("a job group's one run", () => {
  const encoded = (latencies: readonly number[]) => {
    const histogram = build({ bitBucketSize: 64, autoResize: true, numberOfSignificantValueDigits: 3 });
    for (const latency of latencies) histogram.recordValue(Math.round(latency * 1000));
    const text = encodeIntoCompressedBase64(histogram);
    histogram.destroy();
    return text;
  };
  const latencies = (seed: number, median: number) => {
    const random = mulberry32(seed);
    return Array.from({ length: 2000 }, () => median * Math.exp(0.5 * Math.log(1 / (1 - random()))));
  };

  it("stores one run when the last shard completes: the exact merge of the shards' histograms, counts summed", async () => {
    const project = await jobsProject(db, "groups-merge", {
      measuredRuns: 1,
      variants: [{ name: "Split", isBaseline: true, config: { workload: "noop", settings: { rate: 300 }, agents: 3 } }],
      metrics: [
        { key: "latency", unit: "ms", direction: "lower_is_better" },
        { key: "requests", unit: "count", direction: "higher_is_better" },
      ],
    });
    const agents = await Promise.all(
      [1, 2, 3].map((i) => registeredAgent(project, { name: `merge-${i}`, capabilities: ["noop", "shards"], workloads: [splitNoop] })),
    );
    await batchOf(db, project);
    const raw = [latencies(1, 3), latencies(2, 4), latencies(3, 5)];
    const replies = [];
    for (const [i, agent] of agents.entries()) {
      const job = await claimed(agent);
      const run = {
        startedAt: new Date(Date.UTC(2026, 10, 30, 12, 0, 0, i * 10)).toISOString(),
        metrics: [
          { key: "latency", histogram: encoded(raw[i]!), histogramScale: 1000 },
          { key: "requests", value: raw[i]!.length },
        ],
      };
      replies.push(await agentApi.complete(agent.credential, job.id, { leaseToken: job.leaseToken, run }));
      if (i === 0) {
        // Nothing is stored while other shards run; a repeated complete says so again.
        expect(await db.run.count({ where: { experiment: { projectId: project.id } } })).toBe(0);
        const again = await agentApi.complete(agent.credential, job.id, { leaseToken: job.leaseToken, run });
        expect([again.status, again.body]).toEqual([200, { run: null, replayed: true }]);
      }
    }
    expect(replies.map((reply) => reply.status)).toEqual([201, 201, 201]);
    expect(replies.map((reply) => reply.body.run === null)).toEqual([true, true, false]);

    const runs = await db.run.findMany({ where: { experiment: { projectId: project.id } }, include: { results: { include: { metric: true } } } });
    expect(runs).toHaveLength(1);
    const union = histogramFigures(encoded(raw.flat()), 1000);
    const latency = runs[0]?.results.find((m) => m.metric.key === "latency");
    expect([latency?.n, latency?.p50, latency?.p99, latency?.p999]).toEqual([6000n, union?.p50, union?.p99, union?.p999]);
    expect(runs[0]?.results.find((m) => m.metric.key === "requests")?.mean).toBe(6000);
    expect(runs[0]?.sourceDetail).toBe("3 agents: merge-1, merge-2, merge-3");
    expect(runs[0]?.startedAt?.toISOString()).toBe("2026-11-30T12:00:00.000Z");
    // Each shard's own document stays on its job.
    const shards = await db.job.findMany({ where: { projectId: project.id }, orderBy: { shard: "asc" } });
    expect(shards.map((job) => (job.shardRun as { metrics: { key: string; value?: number }[] }).metrics[1]?.value)).toEqual([2000, 2000, 2000]);
    expect(shards.map((job) => job.runId)).toEqual([null, null, runs[0]?.id]);
  });
});

describe("a shard that fails", () => {
  async function runningGroup(label: string) {
    const project = await groupProject(label, { rate: 300 });
    const agents = await Promise.all(
      [1, 2, 3].map((i) => registeredAgent(project, { name: `${label}-${i}`, capabilities: ["noop", "shards"], workloads: [splitNoop] })),
    );
    await batchOf(db, project);
    const jobs = [];
    for (const agent of agents) jobs.push(await claimed(agent));
    // The first shard has finished and kept its run; the others are running.
    const done = await agentApi.complete(agents[0]!.credential, jobs[0]!.id, { leaseToken: jobs[0]!.leaseToken, run: goodRun() });
    expect(done.body).toEqual({ run: null, replayed: false });
    return { project, agents, jobs };
  }

  it("sends the whole group back to the queue when it is retried, dropping the finished shard's run", async () => {
    const { agents, jobs } = await runningGroup("groups-retry");
    const failed = await agentApi.fail(agents[1]!.credential, jobs[1]!.id, { leaseToken: jobs[1]!.leaseToken, error: "target unreachable", retryable: true });
    expect(failed.body.status).toBe("queued");
    const stored = await db.job.findMany({ where: { groupId: jobs[0]!.group?.id }, orderBy: { shard: "asc" } });
    expect(stored.map((job) => [job.status, job.shardRun])).toEqual([
      ["queued", null],
      ["queued", null],
      ["queued", null],
    ]);
    expect(stored[0]?.error).toBe("shard 2 of 3 (agent groups-retry-2) failed, so the whole group runs again: target unreachable");
    // The third shard's agent hears that its lease ended.
    expect((await agentApi.lease(agents[2]!.credential, jobs[2]!.id, { leaseToken: jobs[2]!.leaseToken })).status).toBe(409);
    expect(await db.run.count({ where: { job: { groupId: jobs[0]!.group?.id } } })).toBe(0);
  });

  it("fails the whole group, naming the agent, when the failure is final; no run is stored", async () => {
    const { agents, jobs } = await runningGroup("groups-final");
    await agentApi.fail(agents[2]!.credential, jobs[2]!.id, { leaseToken: jobs[2]!.leaseToken, error: "bad settings", retryable: false });
    const stored = await db.job.findMany({ where: { groupId: jobs[0]!.group?.id }, orderBy: { shard: "asc" } });
    expect(stored.map((job) => job.status)).toEqual(["failed", "failed", "failed"]);
    expect(stored[1]?.error).toBe(
      "shard 3 of 3 (agent groups-final-3) failed: the group's run is not stored, it would be measured by fewer agents than asked (bad settings)",
    );
    expect(await db.run.count({ where: { job: { groupId: jobs[0]!.group?.id } } })).toBe(0);
  });
});
