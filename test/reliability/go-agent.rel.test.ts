// The Go agent (agents/go) against a real Versus server: it enrolls with a token, claims jobs,
// runs them and completes them with run documents the server stores. An http experiment against a
// local target shows in the comparison with its latency histogram and per-second series; the
// runnable gzip example runs on it as on the reference agent. Builds versus-agent with Go, as
// `npm start` does; skipped (saying so) where Go is not installed.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, describe, expect, inject, it } from "vitest";
import { createPrismaClient } from "~/server/db/client";
import { ZExperimentInput } from "~/server/schemas/experiment";
import { getExperimentResults } from "~/server/comparison/charts";
import { gzipRunnable } from "~/server/examples/data/gzip-runnable";
import { jobsOf, projectWithExperiment, runBatch, type TestProject } from "./fixtures";
import { goAgentKit, hasGo } from "./go-agent-kit";
import { eventually, startAgent, startServer } from "./processes";

const databaseUrl = inject("databaseUrl");
const db = createPrismaClient(databaseUrl);
const { binary, track, context, ready } = goAgentKit("go-agent.rel.test");
let target: http.Server | undefined;

afterAll(async () => {
  target?.close();
  await db.$disconnect();
});

const allSucceeded = (project: TestProject, count: number) =>
  eventually(
    `all ${count} jobs to succeed`,
    async () => {
      const jobs = await jobsOf(db, project);
      return jobs.length === count && jobs.every((job) => job.status === "succeeded") && jobs;
    },
    { timeoutMs: 180_000, context },
  );

describe.skipIf(!hasGo)("the Go agent with a real server", () => {
  it("enroll, claim, run an http workload against a local target: the comparison has its histogram and per-second series", async () => {
    target = http.createServer((_request, response) => response.end("x".repeat(512)));
    await new Promise<void>((resolve) => target?.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(target.address() as AddressInfo).port}/`;
    const load = { url, connections: 2, duration: 1 };
    const project = await projectWithExperiment(db, "go-http", {
      ...ZExperimentInput.parse({
        title: "go http",
        warmupRuns: 0,
        measuredRuns: 2,
        variants: [
          { name: "Keep-alive", isBaseline: true, config: { workload: "http", settings: { ...load, keepAlive: true } } },
          { name: "New connection", isBaseline: false, config: { workload: "http", settings: { ...load, keepAlive: false } } },
        ],
        metrics: [
          { key: "latency", unit: "ms", direction: "lower_is_better", aggregation: "median" },
          { key: "throughput", unit: "req/s", direction: "higher_is_better" },
        ],
      }),
      slug: "go-http",
    });
    const server = track(await startServer({ databaseUrl }));
    const agent = track(startAgent({ url: server.url, enrollmentToken: project.token, name: "go-runner", goBinary: binary() }));
    await ready(agent);
    expect(await db.agent.findFirstOrThrow({ where: { projectId: project.id } })).toMatchObject({
      kind: "go",
      capabilities: expect.arrayContaining(["http", "gzip", "exec"]),
    });
    await runBatch(db, project);
    await allSucceeded(project, 4);

    const { comparison, charts } = await getExperimentResults(db, { projectSlug: project.slug }, project.experimentSlug);
    expect(comparison.variants.map((variant) => [variant.name, variant.runs])).toEqual([
      ["Keep-alive", 2],
      ["New connection", 2],
    ]);
    const latency = charts?.metrics.find((metric) => metric.key === "latency");
    for (const variant of ["Keep-alive", "New connection"]) {
      const figure = latency?.percentiles.find((p) => p.variant === variant);
      expect(figure?.source, variant).toBe("histograms");
      expect(figure?.count, variant).toBeGreaterThan(0);
      const series = charts?.metrics.find((metric) => metric.key === "throughput")?.timeSeries.filter((s) => s.variant === variant) ?? [];
      expect(series.length, variant).toBe(2);
      expect(
        series.every((s) => s.storedPoints > 0),
        variant,
      ).toBe(true);
    }
    const run = await db.run.findFirstOrThrow({ where: { experiment: { projectId: project.id } } });
    expect(run).toMatchObject({ source: "agent", sourceDetail: "agent go-runner" });
    expect(run.environment).toMatchObject({ goVersion: expect.any(String), cpuModel: expect.any(String) });
  });

  it("runs the runnable gzip example: the comparison shows Plain and Gzip, Gzip sending fewer bytes", async () => {
    const project = await projectWithExperiment(db, "go-gzip", gzipRunnable.definition);
    const server = track(await startServer({ databaseUrl }));
    const agent = track(startAgent({ url: server.url, enrollmentToken: project.token, name: "go-gzip", goBinary: binary() }));
    await ready(agent);
    await runBatch(db, project);
    await allSucceeded(project, 12);
    const { comparison } = await getExperimentResults(db, { projectSlug: project.slug }, project.experimentSlug);
    expect(comparison.variants.map((variant) => [variant.name, variant.runs])).toEqual([
      ["Plain", 5],
      ["Gzip", 5],
    ]);
    const bytes = comparison.metrics.find((metric) => metric.key === "payload_bytes");
    expect(bytes?.comparison?.comparisons.map((c) => [c.candidate, c.verdict])).toEqual([["Gzip", "better"]]);
  });
});
