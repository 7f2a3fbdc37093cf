// A job group's shard whose agent is lost mid-run (its lease expires), on a real, migrated
// PostgreSQL: the group is settled as one by the next claim — queued again or failed under
// onShardLoss "fail" (the default), stored from the other shards and marked partial under
// "partial" — and no shard is ever offered alone, nor any request counted twice.
import { afterAll, describe, expect, it } from "vitest";
import { db } from "~/server/db/client";
import type { TClaimedJob } from "~/server/schemas/jobs";
import type { TShardLoss } from "~/server/schemas/workload";
import { agentApi, batchOf, claimed, expireLease, jobsProject, registeredAgent } from "~/test/agent-protocol";
import { settleLostShards } from "~/server/agents/lost-shards";
import { runShards } from "~/server/runs/run-shards";

afterAll(() => db.$disconnect());

const splitNoop = {
  name: "noop",
  settingsSchema: { type: "object", properties: { rate: { type: "number", "x-versus-split": true } } },
};

/** A group of three shards, claimed by three agents, all ready (started); shard i's run has samples of value 10 + i. */
async function startedGroup(label: string, options: { onShardLoss?: TShardLoss; maxAttempts: number }) {
  const config = { workload: "noop", settings: { rate: 300 }, agents: 3, ...(options.onShardLoss ? { onShardLoss: options.onShardLoss } : {}) };
  const project = await jobsProject(db, label, { measuredRuns: 1, variants: [{ name: "Split", isBaseline: true, config }] });
  const agents = await Promise.all(
    [1, 2, 3].map((i) => registeredAgent(project, { name: `${label}-${i}`, capabilities: ["noop", "shards"], workloads: [splitNoop] })),
  );
  await batchOf(db, project, { maxAttempts: options.maxAttempts });
  const jobs: TClaimedJob[] = [];
  for (const agent of agents) jobs.push(await claimed(agent));
  for (const [i, job] of jobs.entries()) await agentApi.ready(agents[i]!.credential, job.id, { leaseToken: job.leaseToken });
  const complete = (i: number) =>
    agentApi.complete(agents[i]!.credential, jobs[i]!.id, {
      leaseToken: jobs[i]!.leaseToken,
      run: { metrics: [{ key: "latency", samples: [10 + i, 10 + i, 10 + i] }] },
    });
  const shards = () => db.job.findMany({ where: { groupId: jobs[0]!.group?.id }, orderBy: { shard: "asc" } });
  const runs = () => db.run.findMany({ where: { experiment: { projectId: project.id } }, include: { results: true } });
  return { project, agents, jobs, complete, shards, runs };
}

describe("a shard whose agent is lost mid-run", () => {
  it("fail, attempts left: the next claim sends the whole group back to the queue; the lost shard is never offered alone", async () => {
    const group = await startedGroup("lost-retry", { maxAttempts: 3 });
    expect((await group.complete(0)).status).toBe(201);
    await expireLease(db, group.jobs[1]!.id);
    // The first agent looks for work: it must not get the lost shard, and its claim settles the group.
    expect((await agentApi.claim(group.agents[0]!.credential, 0)).status).toBe(204);
    const stored = await group.shards();
    expect(stored.map((job) => [job.status, job.shardRun, job.groupStartAt])).toEqual([
      ["queued", null, null],
      ["queued", null, null],
      ["queued", null, null],
    ]);
    expect(stored[1]?.error).toBe(
      "shard 2 of 3: the lease expired on attempt 1 of 3, agent lost-retry-2 stopped renewing it (it crashed, hung or lost the network); the whole group runs again",
    );
    expect(stored[2]?.error).toMatch(/^shard 2 of 3 \(agent lost-retry-2\) failed, so the whole group runs again: /);
    // The shard still running hears its lease ended; nothing was stored.
    expect((await agentApi.lease(group.agents[2]!.credential, group.jobs[2]!.id, { leaseToken: group.jobs[2]!.leaseToken })).status).toBe(409);
    expect(await group.runs()).toHaveLength(0);
  });

  it("fail, last attempt: the group fails naming the lost agent; no run is stored", async () => {
    const group = await startedGroup("lost-final", { maxAttempts: 1 });
    await expireLease(db, group.jobs[2]!.id);
    expect((await agentApi.claim(group.agents[0]!.credential, 0)).status).toBe(204);
    const stored = await group.shards();
    expect(stored.map((job) => job.status)).toEqual(["failed", "failed", "failed"]);
    expect(stored[2]?.error).toBe(
      "shard 3 of 3: the lease expired on attempt 1 of 1, agent lost-final-3 stopped renewing it (it crashed, hung or lost the network)",
    );
    expect(stored[0]?.error).toMatch(/^shard 3 of 3 \(agent lost-final-3\) failed: the group's run is not stored/);
    expect((await group.complete(0)).status).toBe(409);
    expect(await group.runs()).toHaveLength(0);
  });

  it("partial, others still running: the last shard's complete stores the others' run, marked partial and naming the lost agent", async () => {
    const group = await startedGroup("lost-partial-running", { onShardLoss: "partial", maxAttempts: 3 });
    expect((await group.complete(0)).status).toBe(201);
    await expireLease(db, group.jobs[1]!.id);
    expect((await agentApi.claim(group.agents[0]!.credential, 0)).status).toBe(204);
    expect((await group.shards()).map((job) => job.status)).toEqual(["succeeded", "failed", "leased"]);
    const last = await group.complete(2);
    expect(last.status).toBe(201);
    expect(last.body.run).not.toBeNull();

    const runs = await group.runs();
    expect(runs).toHaveLength(1);
    const run = runs[0]!;
    // Shards 1 and 3 only, each request once.
    expect([run.results[0]?.n, run.results[0]?.min, run.results[0]?.max]).toEqual([6n, 10, 12]);
    expect(run.warnings[0]).toBe(
      "partial run: measured by 2 of 3 agents — shard 2 of 3 (agent lost-partial-running-2) lost mid-run (lease expired), so its share of the load is missing from these figures",
    );
    expect(run.tags).toContain("partial");
    expect((run.environment as { missingShards: unknown }).missingShards).toEqual([{ agent: "lost-partial-running-2", shard: 1 }]);
    const stored = await group.shards();
    expect(stored[1]?.error).toMatch(/agent lost-partial-running-2 stopped renewing it .*; the group's run is stored partial, without this shard's share$/);
    expect(stored.map((job) => job.runId)).toEqual([null, null, run.id]);
    // The run's page lists each agent, the lost one as lost.
    const agents = await runShards(db, group.project.id, group.project.experimentSlug, run.id);
    expect(agents?.shards.map((shard) => [shard.agent, shard.state])).toEqual([
      ["lost-partial-running-1", "measured"],
      ["lost-partial-running-2", "lost"],
      ["lost-partial-running-3", "measured"],
    ]);
  });

  it("partial, others done: the claim stores their run once, however many claims settle the group at once", async () => {
    const group = await startedGroup("lost-partial-done", { onShardLoss: "partial", maxAttempts: 3 });
    expect((await group.complete(0)).status).toBe(201);
    expect((await group.complete(1)).status).toBe(201);
    await expireLease(db, group.jobs[2]!.id);
    await Promise.all([settleLostShards(db, group.project.id), settleLostShards(db, group.project.id), agentApi.claim(group.agents[0]!.credential, 0)]);

    const runs = await group.runs();
    expect(runs).toHaveLength(1);
    expect(runs[0]?.results[0]?.n).toBe(6n);
    expect(runs[0]?.warnings[0]).toMatch(/^partial run: measured by 2 of 3 agents — shard 3 of 3 \(agent lost-partial-done-3\) lost mid-run/);
    const stored = await group.shards();
    // The lost shard's job carries the group's run, and says it was lost.
    expect(stored.map((job) => [job.status, job.runId])).toEqual([
      ["succeeded", null],
      ["succeeded", null],
      ["failed", runs[0]?.id],
    ]);
    expect(stored[2]?.error).toMatch(/the group's run is stored partial, without this shard's share$/);
  });

  it("partial, lost before the group started: the group starts over as a whole", async () => {
    const config = { workload: "noop", settings: { rate: 300 }, agents: 3, onShardLoss: "partial" as const };
    const project = await jobsProject(db, "lost-before-start", { measuredRuns: 1, variants: [{ name: "Split", isBaseline: true, config }] });
    const agents = await Promise.all(
      [1, 2, 3].map((i) => registeredAgent(project, { name: `early-${i}`, capabilities: ["noop", "shards"], workloads: [splitNoop] })),
    );
    await batchOf(db, project);
    const jobs = [];
    for (const agent of agents) jobs.push(await claimed(agent));
    await expireLease(db, jobs[0]!.id);
    expect((await agentApi.claim(agents[1]!.credential, 0)).status).toBe(204);
    const stored = await db.job.findMany({ where: { groupId: jobs[0]!.group?.id } });
    expect(stored.map((job) => job.status)).toEqual(["queued", "queued", "queued"]);
  });
});
