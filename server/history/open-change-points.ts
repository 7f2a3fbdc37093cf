// The project's open change points: shifts the history found that nobody has acknowledged or
// dismissed yet, newest first. The history page and the Alerts page both list them (a shift needs
// no alert rule to be seen).
import type { Db } from "../db/client";

export interface OpenChangePoint {
  id: string;
  experimentSlug: string;
  experimentTitle: string;
  metricKey: string;
  variant: string;
  branch: string;
  commit: string;
  previousCommit: string;
  changePercent: number | null;
  verdict: "regression" | "improvement";
  foundAt: string;
}

export async function listOpenChangePoints(db: Db, projectId: string): Promise<OpenChangePoint[]> {
  const open = await db.changePoint.findMany({
    // All branches together (""): the view the history opens with.
    where: { experiment: { projectId }, status: "open", branch: "" },
    orderBy: [{ foundAt: "desc" }, { id: "asc" }],
    select: {
      id: true,
      commit: true,
      previousCommit: true,
      changePercent: true,
      verdict: true,
      foundAt: true,
      branch: true,
      experiment: { select: { slug: true, title: true } },
      metric: { select: { key: true } },
      variant: { select: { name: true } },
    },
  });
  return open.map((c) => ({
    id: c.id,
    experimentSlug: c.experiment.slug,
    experimentTitle: c.experiment.title,
    metricKey: c.metric.key,
    variant: c.variant.name,
    branch: c.branch,
    commit: c.commit,
    previousCommit: c.previousCommit,
    changePercent: c.changePercent,
    verdict: c.verdict,
    foundAt: c.foundAt.toISOString(),
  }));
}
