// The project's history page: every experiment whose runs name commits, with each metric's
// open change points, newest first, so a regression anywhere in the project is one click away.
import type { Db } from "../db/client";
import { listOpenChangePoints, type OpenChangePoint } from "./open-change-points";
import { byLastChange, lastChanges } from "../experiments/last-change";

export interface HistoryOverview {
  experiments: {
    slug: string;
    title: string;
    commits: number;
    lastCommitAt: string | null;
    metrics: { key: string; label: string; unit: string; open: { regressions: number; improvements: number } }[];
  }[];
  openChangePoints: OpenChangePoint[];
}

export async function getHistoryOverview(db: Db, projectId: string): Promise<HistoryOverview> {
  const [commitCounts, unsorted, changes, open] = await Promise.all([
    db.$queryRaw<{ experimentId: string; commits: bigint; last: Date | null }[]>`
      SELECT r."experimentId", COUNT(DISTINCT r."gitCommit") AS "commits", MAX(COALESCE(r."gitCommitTime", r."startedAt", r."createdAt")) AS "last"
      FROM "Run" r JOIN "Experiment" e ON e."id" = r."experimentId"
      WHERE e."projectId" = ${projectId} AND r."status" = 'succeeded' AND r."gitCommit" IS NOT NULL AND r."gitCommit" <> ''
      GROUP BY r."experimentId"`,
    db.experiment.findMany({
      where: { projectId },
      select: { id: true, slug: true, title: true, metrics: { orderBy: { position: "asc" }, select: { key: true, label: true, unit: true } } },
    }),
    lastChanges(db, projectId),
    listOpenChangePoints(db, projectId),
  ]);
  const experiments = byLastChange(unsorted, changes);
  const counts = new Map(commitCounts.map((c) => [c.experimentId, c]));
  const withHistory = experiments.filter((e) => counts.has(e.id));
  const slugs = new Set(withHistory.map((e) => e.slug));
  return {
    experiments: withHistory.map((e) => ({
      slug: e.slug,
      title: e.title,
      commits: Number(counts.get(e.id)?.commits ?? 0),
      lastCommitAt: counts.get(e.id)?.last?.toISOString() ?? null,
      metrics: e.metrics.map((m) => ({
        key: m.key,
        label: m.label,
        unit: m.unit,
        open: {
          regressions: open.filter((c) => c.experimentSlug === e.slug && c.metricKey === m.key && c.verdict === "regression").length,
          improvements: open.filter((c) => c.experimentSlug === e.slug && c.metricKey === m.key && c.verdict === "improvement").length,
        },
      })),
    })),
    openChangePoints: open.filter((c) => slugs.has(c.experimentSlug)),
  };
}
