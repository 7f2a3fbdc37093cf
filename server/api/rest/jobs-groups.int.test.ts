// A variant whose workload asks for several agents is queued as job groups, on a real, migrated
// PostgreSQL: each of its jobs is N shards with their shares of the load; every shard goes to a
// different agent that offers `shards`; an agent lacking it never joins.
import { afterAll, describe, expect, it } from "vitest";
import { db } from "~/server/db/client";
import { agentApi, batchOf, claimed, jobsProject, registeredAgent, type JobsProject } from "~/test/agent-protocol";

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
    const project = await groupProject("groups-queue", { rate: 300, url: "http://127.0.0.1:1/" });
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
    await registeredAgent(project, { capabilities: ["noop", "shards"], workloads: [{ name: "noop", settingsSchema: { type: "object", properties: { size: { type: "integer" } } } }] });
    await expect(batchOf(db, project)).rejects.toThrow(
      'Variant "Split" asks for 2 agents, but workload "noop" marks no load setting (x-versus-split) to share among them: set agents to 1',
    );
  });
});
