// What a share link shows, computed from current data: the experiment page's comparison and
// charts (getExperimentResults, the same computation) cut down to what a stranger may see. Live
// links call this on every view; snapshot links once, at creation.
import type { Db } from "../db/client";
import type { TExperimentCharts } from "../schemas/charts";
import { ZSharedContent, type TSharedContent } from "../schemas/share-link";
import { getExperimentResults } from "../comparison/charts";
import { shareHeadlines } from "./share-headline";

export async function sharedContentOf(db: Db, experimentId: string, baseline: string | null): Promise<TSharedContent> {
  const experiment = await db.experiment.findUniqueOrThrow({
    where: { id: experimentId },
    select: {
      slug: true,
      title: true,
      hypothesis: true,
      project: { select: { slug: true } },
      variants: { orderBy: { position: "asc" }, select: { name: true, description: true } },
      metrics: { orderBy: { position: "asc" }, select: { key: true, label: true, unit: true, direction: true, aggregation: true } },
    },
  });
  // A live link outlives renames: if its baseline variant is gone, compare against the
  // experiment's own baseline rather than failing the page.
  const known = baseline !== null && experiment.variants.some((v) => v.name === baseline) ? baseline : undefined;
  const results = await getExperimentResults(db, { projectSlug: experiment.project.slug }, experiment.slug, known);
  const runs = new Map(results.comparison.variants.map((v) => [v.name, v]));
  // Parsed through the allowlist: whatever else the results carry stays behind.
  return ZSharedContent.parse({
    experiment: {
      title: experiment.title,
      hypothesis: experiment.hypothesis,
      variants: experiment.variants.map((v) => ({ ...v, isBaseline: runs.get(v.name)?.isBaseline ?? false, runCount: runs.get(v.name)?.runs ?? 0 })),
      metrics: experiment.metrics,
    },
    comparison: results.comparison,
    charts: results.charts ? withoutRunIds(results.charts) : null,
    // The internal message stays in the server log (charts.ts prints it); strangers get the fact.
    chartsError: results.chartsError === null ? null : "The charts could not be drawn.",
    headlines: shareHeadlines(results.comparison),
  } satisfies TSharedContent);
}

/** Run ids are internal handles (they open runs inside the project): a share page names none. */
function withoutRunIds(charts: TExperimentCharts): TExperimentCharts {
  return {
    ...charts,
    metrics: charts.metrics.map((metric) => ({
      ...metric,
      runs: metric.runs.map((run) => ({ ...run, runId: null })),
      timeSeries: metric.timeSeries.map((series) => ({ ...series, runId: null })),
    })),
  };
}
