// What the reliability tests run: a project of their own (so no other agent of the installation
// takes its jobs) with an experiment whose variants run the reference agent's sleep workload,
// an enrollment token, and batches started through the same service as "Run".
import crypto from "node:crypto";
import type { Db } from "~/server/db/client";
import { startBatch } from "~/server/agents/batches";
import { ZExperimentInput, type TExperimentInput } from "~/server/schemas/experiment";
import { createEnrollmentToken } from "~/server/agents/enrollment-tokens";
import { createExperiment } from "~/server/experiments/experiments";
import { createProject } from "~/server/projects/projects";

export interface TestProject {
  id: string;
  slug: string;
  experimentSlug: string;
  /** An enrollment token's secret. */
  token: string;
}

/** A project of its own with an enrollment token; `experiment` is created in it. */
export async function projectWithExperiment(db: Db, label: string, experiment: TExperimentInput & { slug: string }): Promise<TestProject> {
  const slug = `rel-${label}-${crypto.randomBytes(3).toString("hex")}`;
  const project = await createProject(db, { name: slug, slug, description: "" });
  const created = await createExperiment(db, slug, experiment);
  const token = await createEnrollmentToken(db, project.id, null, { name: "reliability test", expiresAt: null });
  return { id: project.id, slug, experimentSlug: created.slug, token: token.secret };
}

/** Variants A (baseline) and B, each sleeping `sleepMs` per job; metric slept_ms. */
export function sleepProject(db: Db, label: string, options: { sleepMs: number; warmupRuns?: number; measuredRuns?: number }) {
  const workload = { workload: "sleep", settings: { ms: options.sleepMs } };
  return projectWithExperiment(db, label, {
    ...ZExperimentInput.parse({
      title: label,
      warmupRuns: options.warmupRuns ?? 0,
      measuredRuns: options.measuredRuns ?? 1,
      variants: [
        { name: "A", isBaseline: true, config: workload },
        { name: "B", isBaseline: false, config: workload },
      ],
      metrics: [{ key: "slept_ms", unit: "ms", direction: "lower_is_better" }],
    }),
    slug: label,
  });
}

export function runBatch(db: Db, project: TestProject, variants?: string[]) {
  return startBatch(db, project.id, null, { experimentSlug: project.experimentSlug, order: "interleaved", labels: {}, maxAttempts: 3, variants });
}

/** Every job of the project with its run, for the exactly-once checks. */
export function jobsOf(db: Db, project: TestProject) {
  return db.job.findMany({
    where: { projectId: project.id },
    orderBy: { position: "asc" },
    select: { id: true, status: true, attempts: true, warmup: true, runId: true, agentId: true, error: true, agent: { select: { name: true } } },
  });
}
