// A variant whose workload runs on a pool of labelled agents ("every online agent labelled
// pool=lab, at least N"), on a real, migrated PostgreSQL: the pool is counted when the batch
// starts — online agents with the labels and the capabilities, nobody else — its groups get one
// shard per such agent, each shard requires the pool's labels, and too small a pool refuses the
// start with nothing written.
import { afterAll, describe, expect, it } from "vitest";
import { db } from "~/server/db/client";
import { agentApi, batchOf, claimed, jobsProject, registeredAgent, type JobsProject } from "~/test/agent-protocol";

afterAll(() => db.$disconnect());

const splitNoop = {
  name: "noop",
  settingsSchema: { type: "object", properties: { rate: { type: "number", "x-versus-split": true } } },
};
const lab = { pool: "lab" };

async function poolProject(label: string, agents: { labels: Record<string, string>; min?: number }): Promise<JobsProject> {
  return jobsProject(db, label, {
    measuredRuns: 1,
    variants: [{ name: "Split", isBaseline: true, config: { workload: "noop", settings: { rate: 300 }, agents } }],
  });
}

/** The agents around a pool: two that can take its shards, and one each that cannot (offline, no `shards`, no label, stopped). */
async function poolAgents(project: JobsProject) {
  const member = (name: string, extra: Record<string, unknown> = {}) =>
    registeredAgent(project, { name, capabilities: ["noop", "shards"], labels: lab, workloads: [splitNoop], ...extra });
  const members = [await member("lab-1", { labels: { ...lab, zone: "a" } }), await member("lab-2")];
  const offline = await member("lab-offline");
  await db.agent.update({ where: { id: offline.id }, data: { lastSeenAt: new Date(Date.now() - 3_600_000) } });
  const stopped = await member("lab-stopped");
  await db.agent.update({ where: { id: stopped.id }, data: { stopRequested: true } });
  const lacking = await member("lab-no-shards", { capabilities: ["noop"] });
  const unlabelled = await member("elsewhere", { labels: {} });
  return { members, outsiders: [lacking, unlabelled] };
}

describe("a workload run on an agent pool", () => {
  it("splits each run over the pool's online agents that can take a shard, and only they claim the shards", async () => {
    const project = await poolProject("pool-queue", { labels: lab, min: 2 });
    const { members, outsiders } = await poolAgents(project);
    const batch = await batchOf(db, project);
    expect(batch.jobs).toBe(2);
    const jobs = await db.job.findMany({ where: { batchId: batch.id }, orderBy: { position: "asc" } });
    expect(jobs.map((job) => [job.shard, job.shards, job.capabilities, job.requiredLabels])).toEqual([
      [0, 2, ["noop", "shards"], lab],
      [1, 2, ["noop", "shards"], lab],
    ]);
    expect(jobs.map((job) => (job.payload as { settings: unknown; agents: unknown }).settings)).toEqual([{ rate: 150 }, { rate: 150 }]);
    // The job says how many agents the pool had when the batch started.
    expect(jobs.map((job) => (job.payload as { agents: unknown }).agents)).toEqual([2, 2]);

    for (const outsider of outsiders) expect((await agentApi.claim(outsider.credential, 0)).status).toBe(204);
    const shards = [await claimed(members[0]!), await claimed(members[1]!)];
    expect(shards.map((job) => job.group?.shard)).toEqual([0, 1]);
  });

  it("counts the pool within the batch's own labels", async () => {
    const project = await poolProject("pool-batch-labels", { labels: lab });
    const [first] = (await poolAgents(project)).members;
    const batch = await batchOf(db, project, { labels: { zone: "a" } });
    // One agent of the pool is in zone a: its runs are one agent's, which must carry both labels.
    expect(batch.jobs).toBe(1);
    const jobs = await db.job.findMany({ where: { batchId: batch.id } });
    expect(jobs.map((job) => [job.groupId, job.capabilities, job.requiredLabels])).toEqual([[null, ["noop"], { zone: "a", pool: "lab" }]]);
    expect((await claimed(first!)).workload.settings).toEqual({ rate: 300 });
  });

  it("refuses to start, naming the pool, how many are online and its minimum, and writes nothing", async () => {
    const project = await poolProject("pool-too-small", { labels: lab, min: 3 });
    await poolAgents(project);
    const refusal = batchOf(db, project);
    await expect(refusal).rejects.toThrow(
      'Variant "Split" runs on every online agent labelled pool=lab that runs “noop”, at least 3: 2 are online now (lab-1, lab-2). Nothing was started: start more agents with these labels, or lower the minimum.',
    );
    await expect(refusal).rejects.toMatchObject({ fieldIssues: [{ path: ["variants", "Split", "agents"] }] });
    expect(await db.jobBatch.count({ where: { projectId: project.id } })).toBe(0);
    expect(await db.job.count({ where: { projectId: project.id } })).toBe(0);
  });

  it("refuses a pool's variant pinned to one agent", async () => {
    const project = await poolProject("pool-pinned", { labels: lab });
    const { members } = await poolAgents(project);
    await expect(batchOf(db, project, { agentId: members[0]!.id })).rejects.toThrow("cannot be pinned to one agent");
    expect(await db.job.count({ where: { projectId: project.id } })).toBe(0);
  });
});
