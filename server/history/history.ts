// The history page's and GET /api/v1/experiments/{slugOrId}/history's data: a metric's
// per-commit series for one variant and branch (commit-series.ts, read as stored by
// stored-series.ts), thinned to what a chart can
// show (chart-downsample.ts: each slice's extremes, and both sides of every change point), with
// the stored change points (change-point-store.ts) and what the selectors offer.
import type { Db } from "../db/client";
import { AppError } from "../core/errors";
import type { THistory, THistoryQuery } from "../schemas/history";
import { extremeIndices } from "../comparison/chart-downsample";
import { currentSeries, pointAt, storedRunValues, type SeriesColumns } from "./stored-series";

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
    throw new AppError("NOT_FOUND", `Experiment "${experiment.slug}" has no metric "${query.metric ?? ""}" (it has ${known})`, {
      fieldIssues: [{ path: ["metric"], message: `not a metric of this experiment (it has ${known})` }],
    });
  }
  const variant =
    query.variant === undefined
      ? (experiment.variants.find((v) => v.isBaseline) ?? experiment.variants[0])
      : experiment.variants.find((v) => v.name === query.variant);
  if (!variant) {
    const known = experiment.variants.map((v) => `"${v.name}"`).join(", ") || "none";
    throw new AppError("NOT_FOUND", `Experiment "${experiment.slug}" has no variant "${query.variant ?? ""}" (it has ${known})`, {
      fieldIssues: [{ path: ["variant"], message: `not a variant of this experiment (it has ${known})` }],
    });
  }
  const from = query.from ? new Date(query.from) : null;
  const to = query.to ? new Date(query.to) : null;
  if (from && to && from > to)
    throw new AppError("BAD_REQUEST", "from must not be after to", { fieldIssues: [{ path: ["from"], message: "must not be after to" }] });

  const branch = query.branch ?? null;
  const subject = { metric, variant };
  const [read, stored] = await Promise.all([
    // Without the run values: only the commits shown need theirs (below).
    currentSeries(db, subject, branch, { runValues: false }),
    db.changePoint.findMany({
      where: { metricId: metric.id, variantId: variant.id, branch: branch ?? "" },
      orderBy: { commitIndex: "asc" },
      include: { reviewedBy: { select: { name: true, email: true } } },
    }),
  ]);
  let { columns, branches } = read;
  let view = windowOf(columns, stored, from, to, query.maxPoints);
  let runValues = columns.runValues ? null : await storedRunValues(db, subject, branch, read, view.shown);
  if (!columns.runValues && !runValues) {
    // A newer series replaced the one read meanwhile: read it whole (or compute it).
    ({ columns, branches } = await currentSeries(db, subject, branch));
    view = windowOf(columns, stored, from, to, query.maxPoints);
    runValues = null;
  }
  const { first, end, indexOf } = view;
  const shown = view.shown.map((i, n) => pointAt(columns, i, runValues?.[n]));
  const { commits, times } = columns;
  const count = commits.length;
  const timeAt = (i: number) => new Date(times[i] as number).toISOString();

  return {
    experiment: { slug: experiment.slug, title: experiment.title },
    metric: { key: metric.key, label: metric.label, unit: metric.unit, direction: metric.direction, aggregation: metric.aggregation },
    variant: variant.name,
    branch,
    metrics: experiment.metrics.map((m) => ({ key: m.key, label: m.label, unit: m.unit })),
    variants: experiment.variants.map((v) => v.name),
    branches,
    repositoryUrl: experiment.project.repositoryUrl,
    commits: count,
    range: count ? { from: timeAt(0), to: timeAt(count - 1) } : null,
    window: { from: from?.toISOString() ?? null, to: to?.toISOString() ?? null, commits: end - first },
    downsampled: shown.length < end - first,
    points: shown.map((p) => ({
      commit: p.commit,
      branch: p.branch,
      time: p.time.toISOString(),
      message: p.message ?? null,
      median: p.median,
      ciLow: p.ciLow,
      ciHigh: p.ciHigh,
      runValues: p.runValues,
    })),
    changePoints: stored.map((c) => {
      const i = indexOf.get(c.commit) as number;
      return {
        id: c.id,
        commit: c.commit,
        previousCommit: c.previousCommit,
        time: i < 0 ? null : timeAt(i),
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

/**
 * The commits in [from, to] (by time), the ones shown (indices into the series, ascending) and
 * where each change point's commit is (-1: not in the series). Column by column: only the commits
 * shown become objects.
 */
function windowOf(columns: SeriesColumns, changePoints: readonly { commit: string }[], from: Date | null, to: Date | null, maxPoints: number) {
  const { commits, times } = columns;
  const indexOf = new Map(changePoints.map((c) => [c.commit, commits.indexOf(c.commit)]));
  const first = from ? lowerBound(times, from.getTime()) : 0;
  const end = to ? lowerBound(times, to.getTime() + 1) : commits.length;
  // Both sides of each change point stay, so a marked step is drawn where it is.
  const keep = changePoints.flatMap((c) => {
    const i = indexOf.get(c.commit) as number;
    return i < 0 ? [] : [i - 1 - first, i - first];
  });
  const shown = extremeIndices(Array.from(columns.medians.subarray(first, end)), maxPoints, keep).map((i) => first + i);
  return { first, end, indexOf, shown };
}

/** First index whose time is ≥ t (the series is in time order). */
function lowerBound(times: Float64Array, t: number): number {
  let lo = 0;
  let hi = times.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((times[mid] as number) < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
