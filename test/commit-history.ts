// Per-commit runs for tests of the CI gate, the badge and alert rules: each commit is one upload
// through the real ingest (POST /api/v1/results's service) with its runs' values, branch and a
// start time one minute after the previous commit's, so the commits have a known order.
import crypto from "node:crypto";
import type { Db } from "~/server/db/client";
import { ingestResults } from "~/server/runs/ingest-results";
import { ZResultsUpload } from "~/server/schemas/results";

export interface TestCommit {
  sha: string;
  branch: string;
  /** One value per run (each run's single sample, so its mean). */
  values: number[];
  variant?: string;
}

export const METRIC = "latency_ms";

/** A random 40-hex-digit commit hash. */
export function sha(): string {
  return crypto.randomBytes(20).toString("hex");
}

/** Runs around `level` with a small fixed spread (distinct values, so the U test has no ties). */
export function around(level: number, runs = 5): number[] {
  return Array.from({ length: runs }, (_, i) => level + (i - (runs - 1) / 2) * 0.4 + 0.013 * i * i);
}

export async function uploadCommits(
  db: Db,
  project: { id: string; slug: string },
  experiment: string,
  commits: TestCommit[],
  start = new Date("2026-01-01T00:00:00Z"),
  direction: "lower_is_better" | "higher_is_better" = "lower_is_better",
) {
  for (const [index, commit] of commits.entries()) {
    const startedAt = new Date(start.getTime() + index * 60_000).toISOString();
    await ingestResults(
      db,
      ZResultsUpload.parse({
        experiment,
        create: true,
        runs: commit.values.map((value) => ({
          variant: commit.variant ?? "main",
          gitCommit: commit.sha,
          gitBranch: commit.branch,
          startedAt,
          metrics: [{ key: METRIC, unit: "ms", direction, samples: [value] }],
        })),
      }),
      { projectId: project.id, projectSlug: project.slug, source: "upload", bodySha256: crypto.randomBytes(32).toString("hex"), baseUrl: "http://versus.test" },
    );
  }
}
