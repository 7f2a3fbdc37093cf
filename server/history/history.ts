// The history page's and GET /api/v1/experiments/{slugOrId}/history's data: a metric's
// per-commit series for one variant and branch (commit-series.ts, read as stored by
// stored-series.ts), thinned to what a chart can
// show (chart-downsample.ts: each slice's extremes, and both sides of every change point), with
// the stored change points (change-point-store.ts) and what the selectors offer.
import type { Db } from "../db/client";
import { AppError } from "../errors";
import type { THistory, THistoryQuery } from "../schemas/history";
import { extremeIndices } from "../services/chart-downsample";
import type { CommitPoint } from "./commit-series";
import { currentSeries } from "./stored-series";

export async function getHistory(db: Db, projectId: string, experimentRef: string, query: THistoryQuery): Promise<THistory> {
  const experiment = await db.experiment.findFirst({
    where: { projectId, OR: [{ slug: experimentRef }, { id: experimentRef }] },
    select: {
      id: true,
      slug: true,
      title: true,
      project: { select: { repositoryUrl: true } },
      metrics: { orderBy: { position: "asc" }, select: { id: true, key: true, label: true, unit: true, direction: true, aggregation: true } },
      variants: { orderBy: { position: "asc" }, select: { id: true, name: true, isBaseline: true } },
    },
  });
  if (!experiment) throw new AppError("NOT_FOUND", `No experiment "${experimentRef}" in this project`);
  const metric = query.metric === undefined ? experiment.metrics[0] : experiment.metrics.find((m) => m.key === query.metric);
  if (!metric) {
    const known = experiment.metrics.map((m) => `"${m.key}"`).join(", ") || "none";
    throw new AppError("NOT_FOUND", `Experiment "${experiment.slug}" has no metric "${query.metric ?? ""}" (it has ${known})`, { fieldIssues: [{ path: ["metric"], message: `not a metric of this experiment (it has ${known})` }] });
  }
  const variant = query.variant === undefined ? (experiment.variants.find((v) => v.isBaseline) ?? experiment.variants[0]) : experiment.variants.find((v) => v.name === query.variant);
  if (!variant) {
    const known = experiment.variants.map((v) => `"${v.name}"`).join(", ") || "none";
    throw new AppError("NOT_FOUND", `Experiment "${experiment.slug}" has no variant "${query.variant ?? ""}" (it has ${known})`, { fieldIssues: [{ path: ["variant"], message: `not a variant of this experiment (it has ${known})` }] });
  }
  const from = query.from ? new Date(query.from) : null;
  const to = query.to ? new Date(query.to) : null;
  if (from && to && from > to) throw new AppError("BAD_REQUEST", "from must not be after to", { fieldIssues: [{ path: ["from"], message: "must not be after to" }] });

  const branch = query.branch ?? null;
  const [{ series, branches }, stored] = await Promise.all([
    currentSeries(db, { metric, variant }, branch),
    db.changePoint.findMany({
      where: { metricId: metric.id, variantId: variant.id, branch: branch ?? "" },
      orderBy: { commitIndex: "asc" },
      include: { reviewedBy: { select: { name: true, email: true } } },
    }),
  ]);

  const indexOf = new Map(series.map((p, i) => [p.commit, i]));
  const first = from ? lowerBound(series, from.getTime()) : 0;
  const end = to ? lowerBound(series, to.getTime() + 1) : series.length;
  const inWindow = series.slice(first, end);
  // Both sides of each change point stay, so a marked step is drawn where it is.
  const keep = stored.flatMap((c) => {
    const i = indexOf.get(c.commit);
    return i === undefined ? [] : [i - 1 - first, i - first];
  });
  const shown = extremeIndices(inWindow.map((p) => p.median), query.maxPoints, keep).map((i) => inWindow[i] as CommitPoint);

  return {
    experiment: { slug: experiment.slug, title: experiment.title },
    metric: { key: metric.key, label: metric.label, unit: metric.unit, direction: metric.direction, aggregation: metric.aggregation },
    variant: variant.name,
    branch,
    metrics: experiment.metrics.map((m) => ({ key: m.key, label: m.label, unit: m.unit })),
    variants: experiment.variants.map((v) => v.name),
    branches,
    repositoryUrl: experiment.project.repositoryUrl,
    commits: series.length,
    range: series.length ? { from: (series[0] as CommitPoint).time.toISOString(), to: (series.at(-1) as CommitPoint).time.toISOString() } : null,
    window: { from: from?.toISOString() ?? null, to: to?.toISOString() ?? null, commits: inWindow.length },
    downsampled: shown.length < inWindow.length,
    points: shown.map((p) => ({ commit: p.commit, branch: p.branch, time: p.time.toISOString(), message: p.message ?? null, median: p.median, ciLow: p.ciLow, ciHigh: p.ciHigh, runValues: p.runValues })),
    changePoints: stored.map((c) => {
      const i = indexOf.get(c.commit);
      return {
        id: c.id,
        commit: c.commit,
        previousCommit: c.previousCommit,
        time: i === undefined ? null : (series[i] as CommitPoint).time.toISOString(),
        before: c.before,
        after: c.after,
        changePercent: c.changePercent,
        ciLowPercent: c.ciLowPercent,
        ciHighPercent: c.ciHighPercent,
        verdict: c.verdict,
        pValue: c.pValue,
        status: c.status,
        reviewedBy: c.reviewedBy ? c.reviewedBy.name || c.reviewedBy.email : null,
        reviewedAt: c.reviewedAt?.toISOString() ?? null,
      };
    }),
  };
}

/** First index whose time is ≥ t (the series is in time order). */
function lowerBound(series: readonly CommitPoint[], t: number): number {
  let lo = 0;
  let hi = series.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((series[mid] as CommitPoint).time.getTime() < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
