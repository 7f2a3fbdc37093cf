// The Markdown report of one experiment: loads the definition, the comparison (the one the
// experiment page shows, against the same baseline) and the runs' captured environment, and
// hands them to the pure writer in report-markdown.ts.
import type { Db } from "../db/client";
import { getComparison } from "../comparison/comparison";
import { getExperiment } from "../experiments/experiments";
import { summariseEnvironment } from "./report-environment";
import { renderMarkdownReport } from "./report-markdown";

export interface ReportOptions {
  /** Chart images the caller puts beside the report as charts/<file>. */
  chartFiles: string[];
  /** For reproducible output in tests; now by default. */
  generatedAt?: Date;
}

export async function buildMarkdownReport(
  db: Db,
  where: { projectSlug: string },
  experimentSlug: string,
  baseline: string | undefined,
  options: ReportOptions,
): Promise<string> {
  const { experiment } = await getExperiment(db, where.projectSlug, experimentSlug);
  const comparison = experiment.runCount > 0 ? await getComparison(db, { projectSlug: where.projectSlug }, experimentSlug, baseline) : null;
  // The environment of every compared run (getExperiment lists only the most recent runs).
  const runs = await db.run.findMany({
    where: { experimentId: experiment.id, status: "succeeded" },
    select: { environment: true, gitCommit: true, gitBranch: true },
  });
  // What producers noticed about the runs (a probe's gaps…), oldest run first.
  const warned = await db.run.findMany({
    where: { experimentId: experiment.id, NOT: { warnings: { isEmpty: true } } },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    select: { repetition: true, warnings: true, variant: { select: { name: true } } },
  });
  return renderMarkdownReport({
    experiment,
    comparison,
    environment: summariseEnvironment(runs),
    warnings: warned.map((run) => ({ variant: run.variant.name, repetition: run.repetition, warnings: run.warnings })),
    chartFiles: options.chartFiles,
    generatedAt: options.generatedAt ?? new Date(),
  });
}

/** The name a downloaded report goes by. */
export function reportFileName(experimentSlug: string, extension: "md" | "zip"): string {
  return `${experimentSlug}-report.${extension}`;
}
