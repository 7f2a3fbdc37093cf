"use client";
// The history page's interactive part: metric, variant and branch selectors (in the URL, so a
// view can be linked), the chart with zoom and pan, the pinned commit with its link, and the
// change points with acknowledge / dismiss for members. A zoomed window of a thinned history is
// fetched again at full detail.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { usePathname, useRouter } from "next/navigation";
import { useEffect, useState } from "react";
import { ChartErrorBoundary } from "~/components/charts/chart-error-boundary";
import { useTRPC } from "~/components/trpc/react";
import { useHydrated } from "~/components/forms/use-hydrated";
import { useAction } from "~/components/forms/use-action";
import { formatMedianFigures, withUnit } from "~/server/display/display";
import { perRunLabel } from "~/components/format";
import type { THistory } from "~/server/schemas/history";
import { ChangePointList } from "./change-point-list";
import { commitUrl, formatUtc, shortSha } from "./date-axis";
import { HistoryChart, type Domain } from "./history-chart";

type History = THistory & { role: "owner" | "member" | "viewer" };

/** The pinned commit's median, rounded as its tooltip rounds it (at its CI's precision). */
function pinnedMedian(point: { median: number; ciLow: number; ciHigh: number }, unit: string): string {
  const figures = formatMedianFigures({ median: point.median, medianCi: { low: point.ciLow, high: point.ciHigh } }, unit);
  return withUnit(figures.median, figures);
}

interface Props {
  projectSlug: string;
  experimentSlug: string;
  initial: History;
}

export function HistoryExplorer({ projectSlug, experimentSlug, initial }: Props) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const router = useRouter();
  const pathname = usePathname();
  const hydrated = useHydrated();
  const [domain, setDomain] = useState<Domain | null>(null);
  const [fetchWindow, setFetchWindow] = useState<Domain | null>(null);
  const [pinned, setPinned] = useState<THistory["points"][number] | null>(null);

  const selection = {
    projectSlug,
    experimentSlug,
    metric: initial.metric.key,
    variant: initial.variant,
    ...(initial.branch ? { branch: initial.branch } : {}),
  };
  const overview = useQuery({ ...trpc.history.get.queryOptions(selection), initialData: initial });
  const history = overview.data;

  // Wait for the zoom to settle before asking for the window's detail (the brush moves continuously).
  useEffect(() => {
    const timer = setTimeout(() => setFetchWindow(domain), 250);
    return () => clearTimeout(timer);
  }, [domain]);
  const detail = useQuery({
    ...trpc.history.get.queryOptions({
      ...selection,
      from: fetchWindow ? new Date(fetchWindow.from).toISOString() : undefined,
      to: fetchWindow ? new Date(fetchWindow.to).toISOString() : undefined,
    }),
    enabled: fetchWindow !== null && history.downsampled,
    placeholderData: keepPreviousData,
  });
  const points = fetchWindow && history.downsampled && detail.data ? detail.data.points : history.points;

  const review = useMutation(trpc.history.review.mutationOptions());
  const { run, error } = useAction(() => queryClient.invalidateQueries({ queryKey: trpc.history.get.pathKey() }));
  const canReview = history.role !== "viewer";

  const select = (name: "metric" | "variant" | "branch", value: string) => {
    const params = new URLSearchParams({ metric: history.metric.key, variant: history.variant, ...(history.branch ? { branch: history.branch } : {}) });
    if (value) params.set(name, value);
    else params.delete(name);
    setDomain(null);
    setPinned(null);
    router.push(`${pathname}?${params.toString()}`);
  };

  const visibleCount = domain ? points.filter((p) => Date.parse(p.time) >= domain.from && Date.parse(p.time) <= domain.to).length : null;
  const link = pinned ? commitUrl(history.repositoryUrl, pinned.commit) : null;

  return (
    <>
      <section className="card" aria-labelledby="history-chart-heading">
        <div className="history-head">
          <h2 id="history-chart-heading">
            {history.metric.label || history.metric.key}{" "}
            <span className="muted small">
              ({history.metric.unit}, {history.metric.direction === "lower_is_better" ? "lower is better" : "higher is better"};{" "}
              {perRunLabel(history.metric.aggregation)})
            </span>
          </h2>
          <div className="history-selectors">
            <label>
              Metric{" "}
              <select value={history.metric.key} onChange={(e) => select("metric", e.target.value)} disabled={!hydrated}>
                {history.metrics.map((m) => (
                  <option key={m.key} value={m.key}>
                    {m.label || m.key}
                  </option>
                ))}
              </select>
            </label>
            <label>
              Variant{" "}
              <select value={history.variant} onChange={(e) => select("variant", e.target.value)} disabled={!hydrated}>
                {history.variants.map((v) => (
                  <option key={v}>{v}</option>
                ))}
              </select>
            </label>
            <label>
              Branch{" "}
              <select value={history.branch ?? ""} onChange={(e) => select("branch", e.target.value)} disabled={!hydrated} aria-label="Branch">
                <option value="">All branches</option>
                {history.branches.map((b) => (
                  <option key={b.branch} value={b.branch}>
                    {b.branch} ({b.commits} commits)
                  </option>
                ))}
              </select>
            </label>
          </div>
        </div>
        {history.commits === 0 ? (
          <p className="empty">
            No runs of “{history.variant}” name a git commit{history.branch ? ` on ${history.branch}` : ""} yet. Upload runs with <code>gitCommit</code> (and{" "}
            <code>gitBranch</code>, <code>gitCommitTime</code>, <code>gitCommitMessage</code>) to build the history.
          </p>
        ) : (
          <>
            <p className="small muted history-range" data-testid="history-range">
              {domain
                ? `Showing ${formatUtc(new Date(domain.from).toISOString()).slice(0, 10)} – ${formatUtc(new Date(domain.to).toISOString()).slice(0, 10)}: ${visibleCount} of ${history.commits} commits`
                : `All ${history.commits} commits, ${history.range?.from.slice(0, 10)} – ${history.range?.to.slice(0, 10)}`}
              {history.downsampled && !(fetchWindow && detail.data)
                ? ` (thinned to ${history.points.length}: each slice's lowest and highest median; zoom in for every commit)`
                : ""}
              {" · "}Drag across the chart to zoom; move the brush below it to pan.
              {domain ? (
                <>
                  {" "}
                  <button type="button" className="button small" onClick={() => setDomain(null)}>
                    Reset zoom
                  </button>
                </>
              ) : null}
            </p>
            <ChartErrorBoundary>
              <figure className="chart" data-chart={`${history.metric.key}/history`} aria-label={`${history.metric.key} over commits`}>
                {hydrated ? (
                  <HistoryChart
                    unit={history.metric.unit}
                    repositoryUrl={history.repositoryUrl}
                    points={points}
                    overview={history.points}
                    changePoints={history.changePoints}
                    domain={domain}
                    onDomain={setDomain}
                    onPick={setPinned}
                  />
                ) : (
                  <div className="chart-skeleton" style={{ height: 424 }} />
                )}
                <figcaption className="small muted">
                  Line: median of each commit&apos;s runs; band: its 95% confidence interval (order statistics; the runs&apos; range below 6 runs); dots: every
                  run (up to 400 commits in view); vertical markers: change points (E-Divisive means, p ≤ 0.01), red for a regression, green for an improvement,
                  dashed once reviewed.
                </figcaption>
              </figure>
            </ChartErrorBoundary>
            {pinned ? (
              <div className="history-pinned" data-testid="pinned-commit">
                <strong className="mono">{shortSha(pinned.commit)}</strong> {pinned.message ?? <span className="muted">no commit message uploaded</span>}
                <span className="small muted">
                  {" "}
                  · {formatUtc(pinned.time)}
                  {pinned.branch ? ` · ${pinned.branch}` : ""} · median {pinnedMedian(pinned, history.metric.unit)} of {pinned.runValues.length} runs
                </span>{" "}
                {link ? (
                  <a href={link} target="_blank" rel="noreferrer noopener">
                    View commit
                  </a>
                ) : (
                  <span className="small muted">(set the repository URL in the project&apos;s settings to link commits)</span>
                )}
              </div>
            ) : null}
          </>
        )}
      </section>
      <ChangePointList
        changePoints={history.changePoints}
        unit={history.metric.unit}
        repositoryUrl={history.repositoryUrl}
        canReview={canReview}
        error={error}
        busy={review.isPending}
        onReview={(id, status) => run(() => review.mutateAsync({ projectSlug, id, status }))}
        onShow={(time) => {
          const t = Date.parse(time);
          const span = history.range ? Math.max((Date.parse(history.range.to) - Date.parse(history.range.from)) / 10, 86_400_000) : 86_400_000 * 14;
          setDomain({ from: t - span, to: t + span });
        }}
      />
    </>
  );
}
