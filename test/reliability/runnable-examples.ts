// What the reliability tests of the runnable write-ups share (Go and JVM agents): an example as it
// ships but shorter (its jobs' length cut, two runs per variant, no warm-up run), created in a
// project of its own, run by Run on a freshly started agent until every job succeeded, and read
// back as the comparison's figures per metric and variant.
import type { Db } from "~/server/db/client";
import { getExperimentResults } from "~/server/comparison/charts";
import type { ExampleDefinition } from "~/server/examples/data/common";
import { jobsOf, projectWithExperiment, runBatch, type TestProject } from "./fixtures";
import { eventually, startServer, type Child } from "./processes";

/** The example as shipped but for `short` (settings that make a job short), two runs per variant and no warm-up run. */
export function shortened(definition: ExampleDefinition, label: string, short: Record<string, unknown>): ExampleDefinition {
  return {
    ...definition,
    slug: `${definition.slug}-${label}`,
    warmupRuns: 0,
    measuredRuns: 2,
    variants: definition.variants.map((variant) => {
      const config = variant.config as { settings: Record<string, unknown> };
      return { ...variant, config: { ...config, settings: { ...config.settings, ...short } } };
    }),
  };
}

export interface ExampleRunner {
  databaseUrl: string;
  /** Keeps a process to stop after the test. */
  track: <T extends Child>(child: T) => T;
  context: () => string;
  /** Starts the agent for the project on the server and resolves once it is ready. */
  agent: (serverUrl: string, project: TestProject, label: string) => Promise<unknown>;
}

/** Runs the shortened example's batch; the comparison's figure per metric and variant (the mean of its runs) and the stored runs. */
export async function runShortened(db: Db, runner: ExampleRunner, definition: ExampleDefinition, label: string, short: Record<string, unknown>) {
  const project = await projectWithExperiment(db, label, shortened(definition, label, short));
  const server = runner.track(await startServer({ databaseUrl: runner.databaseUrl }));
  await runner.agent(server.url, project, label);
  await runBatch(db, project);
  const jobs = definition.variants.length * 2;
  await eventually(
    `all ${jobs} jobs to succeed`,
    async () => {
      const all = await jobsOf(db, project);
      const failed = all.find((job) => job.status === "failed");
      if (failed) throw new Error(`job ${failed.id} failed: ${failed.error}`);
      return all.length === jobs && all.every((job) => job.status === "succeeded") && all;
    },
    { timeoutMs: 420_000, context: runner.context },
  );
  const { comparison } = await getExperimentResults(db, { projectSlug: project.slug }, project.experimentSlug);
  const figure = (key: string, variant: string): number | null | undefined =>
    comparison.metrics.find((metric) => metric.key === key)?.comparison?.variants.find((stats) => stats.variant === variant)?.mean;
  const runs = await db.run.findMany({ where: { experiment: { projectId: project.id } }, select: { warnings: true, environment: true } });
  return { comparison, figure, runs };
}
