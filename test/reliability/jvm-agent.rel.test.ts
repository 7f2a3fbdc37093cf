// The JVM agent (agents/jvm) against a real server: it enrolls with a token, runs the bundled
// serializer example's two variants (the `json` workload: shared vs new-per-call ObjectMapper, each
// job in a forked JVM) and the comparison shows both with their metrics. Skipped, saying so, where
// `java` or `mvn` is missing. Iterations are cut to a few so that the jobs take seconds, and the
// longest warm-up to 1 ms, so every run is measured before its warm-up could settle and must say so.
import { afterAll, describe, expect, inject, it } from "vitest";
import { createPrismaClient } from "~/server/db/client";
import type { TComparison } from "~/server/schemas/comparison";
import { createApiKey } from "~/server/projects/api-keys";
import { serializerRunnable } from "~/server/examples/data/serializer-runnable";
import { jobsOf, projectWithExperiment, runBatch } from "./fixtures";
import { jvmAgentKit } from "./jvm-agent-kit";
import { eventually, startJvmAgent, startServer } from "./processes";

const databaseUrl = inject("databaseUrl");
const db = createPrismaClient(databaseUrl);
const { tools, track, context } = jvmAgentKit("jvm-agent.rel.test.ts");
afterAll(() => db.$disconnect());

/**
 * The example as it ships, with a few short iterations and fewer runs; maxWarmupTime 1 ms ends
 * warm-up after its first iteration (200 serialisations in a cold JVM take far longer), too few
 * for the steady-state test: each run must arrive with its warning.
 */
const quick = {
  ...serializerRunnable.definition,
  warmupRuns: 0,
  measuredRuns: 2,
  variants: serializerRunnable.definition.variants.map((variant) => {
    const config = variant.config as { workload: string; settings: Record<string, unknown> };
    return {
      ...variant,
      config: {
        workload: config.workload,
        settings: { ...config.settings, warmupIterations: 1, maxWarmupTime: 1, iterations: 3, operationsPerIteration: 200 },
      },
    };
  }),
};

describe.skipIf(!tools)("the JVM agent with a real server", () => {
  it("runs the serializer example's two variants and the comparison has both with their metrics", async () => {
    const project = await projectWithExperiment(db, "jvm", quick);
    const server = track(await startServer({ databaseUrl }));
    const agent = track(startJvmAgent({ url: server.url, enrollmentToken: project.token, name: "jvm-1" }));
    await eventually("the JVM agent to be ready", () => agent.lines.some((line) => line.includes("event=agent.ready")), { context });
    const registered = await db.agent.findFirstOrThrow({ where: { projectId: project.id, name: "jvm-1" } });
    expect(registered).toMatchObject({ kind: "jvm" });

    const batch = await runBatch(db, project);
    expect(batch.jobs).toBe(4);
    const jobs = await eventually(
      "the 4 jobs to succeed",
      async () => {
        const all = await jobsOf(db, project);
        if (all.some((job) => job.status === "failed")) throw new Error(`a job failed: ${all.map((job) => job.error).join("; ")}\n${context()}`);
        return all.length === 4 && all.every((job) => job.status === "succeeded") && all;
      },
      { timeoutMs: 180_000, context },
    );
    expect(jobs.every((job) => job.agent?.name === "jvm-1")).toBe(true);

    const key = await createApiKey(db, project.slug, "reliability");
    const response = await fetch(`${server.url}/api/v1/experiments/${project.experimentSlug}/comparison`, {
      headers: { authorization: `Bearer ${key.secret}` },
    });
    expect(response.status).toBe(200);
    const comparison = (await response.json()) as TComparison;
    expect(comparison.variants).toEqual([
      { name: "Shared ObjectMapper", isBaseline: true, runs: 2 },
      { name: "New ObjectMapper per call", isBaseline: false, runs: 2 },
    ]);
    for (const key of ["serialize_time", "alloc_per_op", "message_bytes"]) {
      const metric = comparison.metrics.find((candidate) => candidate.key === key);
      expect(
        metric?.comparison?.comparisons.map((c) => c.candidate),
        key,
      ).toEqual(["New ObjectMapper per call"]);
    }
    const run = await db.run.findFirstOrThrow({ where: { experiment: { projectId: project.id } } });
    expect(run.environment).toMatchObject({ agent: { kind: "jvm", name: "jvm-1" } });
    // Steady state: each run records its warm-up and CV, and the warm-up that never settled is a
    // run warning (stored with the run; the runs list, report and runs.csv show run.warnings).
    const runs = await db.run.findMany({ where: { experiment: { projectId: project.id } } });
    expect(runs).toHaveLength(4);
    for (const stored of runs) {
      expect(stored.environment).toMatchObject({
        // Three forks by default, each with its one warm-up iteration; the warm-up's figures are the forks' totals.
        harness: {
          steadyState: true,
          maxWarmupTimeMs: 1,
          forks: 3,
          warmup: { iterations: 3, steadyState: "not reached" },
          measuredCvPercent: expect.any(Number),
          forkRuns: Array.from({ length: 3 }, () => expect.objectContaining({ warmup: expect.objectContaining({ iterations: 1 }) })),
        },
      });
      // Every fork's warm-up says so, in one warning naming the forks (each fork's figures in turn where they differ).
      expect(stored.warnings).toEqual([
        expect.stringMatching(/^forks 1, 2 and 3 of 3: did not reach steady state in [\d./]+ s: only 1 warm-up iteration fitted, the trend test needs 5 /),
      ]);
    }

    // SIGTERM: the agent stops cleanly with exit code 0.
    expect(await agent.stop("SIGTERM")).toBe(0);
  });
});
