// A variant whose settings list bundled targets for the agent to start (the Go agent's http and
// grpc `targets` setting) needs the capability `targets` from its agent, on a real, migrated
// PostgreSQL: an agent with the workload but not the capability (the JVM agent's own http) never
// claims its jobs, and the batch says why; one that offers it does.
import { afterAll, expect, it } from "vitest";
import { db } from "~/server/db/client";
import { listBatches } from "~/server/agents/batches";
import { agentApi, batchOf, claimed, jobsProject, registeredAgent } from "~/test/agent-protocol";

afterAll(() => db.$disconnect());

it("needs targets when the settings list some; an agent without it waits, one with it claims the job", async () => {
  const project = await jobsProject(db, "targets-caps", {
    measuredRuns: 1,
    variants: [
      {
        name: "Started",
        isBaseline: true,
        config: { workload: "noop", settings: { size: 1, targets: [{ name: "app-1", addr: "127.0.0.1:17811" }] } },
      },
      { name: "Plain", isBaseline: false, config: { workload: "noop", settings: { size: 2, targets: [] } } },
    ],
    metrics: [{ key: "latency", unit: "ms", direction: "lower_is_better" }],
  });
  const batch = await batchOf(db, project);
  const jobs = await db.job.findMany({ where: { batchId: batch.id }, select: { capabilities: true }, orderBy: { position: "asc" } });
  expect(jobs.map((job) => job.capabilities)).toEqual([["noop", "targets"], ["noop"]]);

  const withoutTargets = await registeredAgent(project, { capabilities: ["noop"] });
  expect((await claimed(withoutTargets)).variant.name).toBe("Plain");
  expect((await agentApi.claim(withoutTargets.credential, 0)).status).toBe(204);
  const [listed] = await listBatches(db, project.id, project.experimentSlug);
  expect(listed?.waiting).toEqual(["No agent of this project offers “noop”, “targets”: enroll one that does."]);

  const withTargets = await registeredAgent(project, { capabilities: ["noop", "targets"] });
  const job = await claimed(withTargets);
  expect(job.variant.name).toBe("Started");
  expect(job.workload.settings).toEqual({ size: 1, targets: [{ name: "app-1", addr: "127.0.0.1:17811" }] });
});
