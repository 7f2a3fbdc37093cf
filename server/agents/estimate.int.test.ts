// The Run dialog's estimate of one job per variant: the median time of this experiment's earlier
// jobs of the variant with its current settings, else the workload's own duration settings,
// else unknown.
import { afterAll, expect, it } from "vitest";
import { db } from "~/server/db/client";
import { agentApi, batchOf, claimed, goodRun, jobsProject, registeredAgent } from "~/test/agent-protocol";
import { estimateJobSeconds } from "./estimate";

afterAll(() => db.$disconnect());

it("earlier jobs of the same settings first, then the workload's settings, else unknown", async () => {
  const project = await jobsProject(db, "estimate", {
    measuredRuns: 3,
    variants: [
      { name: "Sleep", isBaseline: true, config: { workload: "sleep", settings: { ms: 2000 } } },
      { name: "Load", isBaseline: false, config: { workload: "http", settings: { duration: 3, warmupSeconds: 1 } } },
      { name: "Command", isBaseline: false, config: { workload: "exec", settings: { command: ["true"] } } },
    ],
  });
  const estimate = () => estimateJobSeconds(db, project.id, project.experimentSlug);
  expect(await estimate()).toEqual([
    { variant: "Sleep", seconds: 2, basis: "settings", jobs: 0 },
    { variant: "Load", seconds: 4, basis: "settings", jobs: 0 },
    { variant: "Command", seconds: null, basis: null, jobs: 0 },
  ]);

  // Three Sleep jobs that took 5, 9 and 6 s from claim to complete.
  const agent = await registeredAgent(project, { capabilities: ["sleep"] });
  await batchOf(db, project, { variants: ["Sleep"] });
  for (const took of [5, 9, 6]) {
    const job = await claimed(agent);
    expect((await agentApi.complete(agent.credential, job.id, { leaseToken: job.leaseToken, run: goodRun() })).status).toBe(201);
    const finishedAt = new Date();
    await db.job.update({ where: { id: job.id }, data: { startedAt: new Date(finishedAt.getTime() - took * 1000), finishedAt } });
  }
  expect((await estimate())[0]).toEqual({ variant: "Sleep", seconds: 6, basis: "earlier jobs", jobs: 3 });

  // New settings: the earlier jobs ran other ones.
  await db.variant.updateMany({
    where: { experiment: { projectId: project.id }, name: "Sleep" },
    data: { config: { workload: "sleep", settings: { ms: 500 } } },
  });
  expect((await estimate())[0]).toEqual({ variant: "Sleep", seconds: 0.5, basis: "settings", jobs: 0 });
});
