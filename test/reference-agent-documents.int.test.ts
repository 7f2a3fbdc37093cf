// The reference agent's run documents hold summaries that describe their values: a real run of
// each of its built-in workloads, mapped to run metrics as the agent sends them, passes the
// server's schema for a run's metric (its summary rules, server/schemas/summary-rules.ts) and is
// stored by a real complete.
import { afterAll, expect, inject, it } from "vitest";
import { runMetrics } from "~/agents/reference/agent/run-metrics";
import { MemoryRecorder } from "~/agents/reference/workloads/recorder";
import { builtInWorkloads } from "~/agents/reference/workloads/registry";
import { createPrismaClient } from "~/server/db/client";
import { ZRunMetricInput } from "~/server/schemas/results";
import { agentApi, batchOf, claimed, jobsProject, registeredAgent } from "./agent-protocol";

const db = createPrismaClient(inject("databaseUrl"));
afterAll(() => db.$disconnect());

it("every metric of a real run of each built-in workload describes its values, and a complete stores it", async () => {
  const workloads = builtInWorkloads();
  const runs = [
    { name: "gzip", settings: { sizeBytes: 4096, iterations: 20, warmupIterations: 2 } },
    { name: "gzip", settings: { sizeBytes: 4096, iterations: 1, warmupIterations: 0, compress: false } },
    { name: "sleep", settings: { ms: 2 } },
  ];
  for (const { name, settings } of runs) {
    const prepared = workloads.prepare(name, settings);
    if ("problem" in prepared) throw new Error(prepared.problem);
    const recorder = new MemoryRecorder();
    await prepared.run(recorder, new AbortController().signal);
    const mapped = runMetrics([], prepared.metrics, recorder);
    if ("problem" in mapped) throw new Error(mapped.problem);
    for (const metric of mapped.metrics) {
      const parsed = ZRunMetricInput.safeParse(metric);
      expect(parsed.success, `${name} ${metric.key} ${JSON.stringify(metric)}: ${parsed.error?.message}`).toBe(true);
    }
  }

  // A gzip run's document, completed as the agent completes a job.
  const project = await jobsProject(db, "reference-documents", {
    measuredRuns: 1,
    variants: [{ name: "A", isBaseline: true, config: { workload: "gzip", settings: {} } }],
  });
  // The test experiment measures "latency": make it the gzip workload's payload_bytes.
  await db.metric.updateMany({ where: { experiment: { projectId: project.id } }, data: { key: "payload_bytes", unit: "B" } });
  await batchOf(db, project, { variants: ["A"] });
  const agent = await registeredAgent(project, { capabilities: ["gzip"] });
  const job = await claimed(agent);
  const prepared = workloads.prepare("gzip", { sizeBytes: 4096, iterations: 5 });
  if ("problem" in prepared) throw new Error(prepared.problem);
  const recorder = new MemoryRecorder();
  await prepared.run(recorder, new AbortController().signal);
  const mapped = runMetrics(job.metrics, prepared.metrics, recorder);
  if ("problem" in mapped) throw new Error(mapped.problem);
  const reply = await agentApi.complete(agent.credential, job.id, { leaseToken: job.leaseToken, run: { environment: {}, metrics: mapped.metrics } });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
});
