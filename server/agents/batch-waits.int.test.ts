// A batch no agent can take says why on the batch panel for as long as it waits: no agent offers
// its workload, none that does has its labels, the ones that could are offline (since when), its
// pinned agent was revoked. Real agents registered over the route, real batches, listBatches as
// the panel polls it.
import { afterAll, describe, expect, it } from "vitest";
import { db } from "~/server/db/client";
import { formatDateTime } from "~/server/display/display";
import { agentApi, batchOf, jobsProject, registeredAgent, type JobsProject } from "~/test/agent-protocol";
import { cancelBatch, listBatches } from "./batches";

afterAll(() => db.$disconnect());

const waiting = async (project: JobsProject) => (await listBatches(db, project.id, project.experimentSlug))[0]?.waiting;
const offline = (agentId: string, at: Date) => db.agent.update({ where: { id: agentId }, data: { lastSeenAt: at } });

describe("a waiting batch says why", () => {
  it("no agent offers the workload; then one does and it says nothing; then that one is offline, since when", async () => {
    const project = await jobsProject(db, "waits-none");
    const batch = await batchOf(db, project);
    expect(await waiting(project)).toEqual(["No agent of this project offers “noop”: enroll one that does."]);

    const agent = await registeredAgent(project, { name: "lab-1" });
    expect(await waiting(project)).toEqual([]);

    const lastSeen = new Date(Date.now() - 10 * 60_000);
    await offline(agent.id, lastSeen);
    expect(await waiting(project)).toEqual([
      `The agents that could run “noop” are not available: lab-1 (offline since ${formatDateTime(lastSeen)}). Its jobs wait until one is online.`,
    ]);

    // Back online (any call counts), then the batch ends: nothing to say.
    await agentApi.heartbeat(agent.credential, { runningJobIds: [] });
    expect(await waiting(project)).toEqual([]);
    await offline(agent.id, lastSeen);
    await cancelBatch(db, project.id, batch.id);
    expect(await waiting(project)).toEqual([]);
  });

  it("an agent offers the workload but lacks the batch's labels; another was asked to stop", async () => {
    const project = await jobsProject(db, "waits-labels");
    await registeredAgent(project, { name: "laptop", labels: { pool: "desk" } });
    await batchOf(db, project, { labels: { pool: "lab" } });
    expect(await waiting(project)).toEqual(["No agent offering “noop” has the labels pool=lab (laptop: pool=desk)."]);

    const lab = await registeredAgent(project, { name: "lab-2", labels: { pool: "lab" } });
    expect(await waiting(project)).toEqual([]);
    await db.agent.update({ where: { id: lab.id }, data: { stopRequested: true } });
    expect(await waiting(project)).toEqual(["The agents that could run “noop” are not available: lab-2 (asked to stop). Its jobs wait until one is online."]);
  });

  it("the agent it is pinned to was revoked; a revoked agent that offered the workload is named", async () => {
    const project = await jobsProject(db, "waits-pinned");
    const pinned = await registeredAgent(project, { name: "pinned-1" });
    await batchOf(db, project, { agentId: pinned.id });
    expect(await waiting(project)).toEqual([]);
    const revokedAt = new Date();
    await db.agent.update({ where: { id: pinned.id }, data: { revokedAt } });
    expect(await waiting(project)).toEqual([
      `It is pinned to pinned-1, which was revoked on ${formatDateTime(revokedAt)}: no other agent takes its jobs. Cancel it and run again.`,
    ]);

    const other = await jobsProject(db, "waits-revoked");
    const gone = await registeredAgent(other, { name: "old-1" });
    await db.agent.update({ where: { id: gone.id }, data: { revokedAt } });
    await batchOf(db, other);
    expect(await waiting(other)).toEqual(["No agent of this project offers “noop” (old-1, which did, was revoked): enroll one that does."]);
  });
});
