"use client";
// Per metric, each run's value — what it contributes to comparisons — next to its stored summary
// (the numbers the tool printed or the samples, histogram or per-second series gave), a page at a
// time. One metric at a time, picked above the table as the charts card picks a chart: an
// experiment whose runs report a dozen figures would otherwise list a dozen tables of twenty rows,
// and the server would render and send every one of them with each view of the page. The first
// metric's first page comes with the page; another metric's loads when it is picked.
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Segmented } from "~/components/charts/segmented";
import { directionLabel } from "~/components/format";
import { QueryStatus } from "~/components/query-status";
import { formatMeasure } from "~/server/display/display";
import { useTRPC } from "~/components/trpc/react";
import type { ExperimentDetail } from "~/server/experiments/experiments";
import type { MetricResultsPage } from "~/server/runs/experiment-runs";
import { Pager } from "./pager";
import { usePagedList } from "./use-paged-list";

type Metric = ExperimentDetail["experiment"]["metrics"][number];

const FIGURE_NAMES: Record<Metric["summaryFigure"], string> = {
  mean: "mean",
  p50: "median",
  p90: "p90",
  p95: "p95",
  p99: "p99",
  min: "min",
  max: "max",
  sum: "sum",
};

type ShownMetric = Pick<Metric, "key" | "label" | "unit" | "direction" | "aggregation" | "summaryFigure">;

interface Ref {
  projectSlug: string;
  experimentSlug: string;
}

/** The card: the experiment's metrics to pick from, and the first page of the first one's results. */
export function MetricResultsCard({ metrics, first, ...ref }: Ref & { metrics: readonly ShownMetric[]; first: MetricResultsPage }) {
  const [chosen, setChosen] = useState(metrics[0]?.key);
  const metric = metrics.find((candidate) => candidate.key === chosen) ?? metrics[0];
  if (!metric) return null;
  return (
    <section className="card" aria-labelledby="results-heading">
      <div className="metric-charts-head">
        <h2 id="results-heading" style={{ margin: 0 }}>
          Results per run
        </h2>
        {metrics.length > 1 ? (
          <Segmented label="Metric of the results" options={metrics.map(({ key }) => ({ value: key, label: key }))} value={metric.key} onChange={setChosen} />
        ) : null}
      </div>
      {metric.key === metrics[0]?.key ? (
        <MetricResults key={metric.key} {...ref} metric={metric} first={first} />
      ) : (
        <PickedMetricResults key={metric.key} {...ref} metric={metric} limit={first.limit} />
      )}
    </section>
  );
}

/** A metric picked after the page loaded: its first page is asked for now. */
function PickedMetricResults({ metric, limit, ...ref }: Ref & { metric: ShownMetric; limit: number }) {
  const trpc = useTRPC();
  const query = useQuery(trpc.experiment.metricResults.queryOptions({ ...ref, metricKey: metric.key, offset: 0, limit }));
  return query.data ? <MetricResults {...ref} metric={metric} first={query.data} /> : <QueryStatus query={query} />;
}

function MetricResults({ projectSlug, experimentSlug, metric, first }: Ref & { metric: ShownMetric; first: MetricResultsPage }) {
  const trpc = useTRPC();
  const { page, pager } = usePagedList(first, (offset) =>
    trpc.experiment.metricResults.queryOptions({ projectSlug, experimentSlug, metricKey: metric.key, offset, limit: first.limit }),
  );
  const rows = page.rows;
  return (
    <div aria-label={`Results: ${metric.key}`} role="group">
      <h3>
        <code>{metric.key}</code>{" "}
        <span className="muted small">
          {metric.label ? `${metric.label} · ` : ""}
          {metric.unit} · {directionLabel[metric.direction]} · per run: {metric.aggregation}
        </span>
      </h3>
      {page.total === 0 ? (
        <p className="muted">No run reports {metric.key} yet.</p>
      ) : (
        <>
          <p className="muted small">
            <strong>Run value</strong>: what each run contributes to comparisons — the value the run&apos;s producer sent (marked <em>sent</em>, e.g. the whole
            run&apos;s rate), else its summary&apos;s {FIGURE_NAMES[metric.summaryFigure]}. The summary columns describe the run&apos;s own values: its
            operations, or its seconds when it sent a per-second series (then n counts seconds).
          </p>
          <div className="table-wrap">
            <table aria-label={`Runs of ${metric.key}`}>
              <thead>
                <tr>
                  <th>Variant</th>
                  <th className="num">#</th>
                  <th className="num">Run value</th>
                  <th className="num">n</th>
                  <th className="num">mean</th>
                  <th className="num">sd</th>
                  <th className="num">min</th>
                  <th className="num">p50</th>
                  <th className="num">p90</th>
                  <th className="num">p99</th>
                  <th className="num">max</th>
                </tr>
              </thead>
              <tbody>
                {rows.map(({ run, result }) => (
                  <tr key={run.id}>
                    <td>
                      {run.variant}
                      {/* A result stored before ingest refused non-finite figures: shown, not compared. */}
                      {result.unusable ? (
                        <div className="small">
                          <span className="badge warn">left out</span> <span className="muted">{result.unusable}</span>
                        </div>
                      ) : null}
                      {/* Stored before summaries were checked, and contradicting itself: its figures are not shown as sound. */}
                      {result.summaryNote ? (
                        <div className="small">
                          <span className="badge warn">summary contradicts itself</span> <span className="muted">{result.summaryNote}</span>
                        </div>
                      ) : null}
                    </td>
                    <td className="num">{run.repetition}</td>
                    <td className="num">
                      {formatMeasure(result.runValue)}
                      {result.explicit ? <span className="muted small"> sent</span> : null}
                    </td>
                    <SummaryCells result={result} />
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pager noun="run" label={`runs of ${metric.key}`} {...pager} />
        </>
      )}
    </div>
  );
}

type ShownResult = MetricResultsPage["rows"][number]["result"];

/** The stored summary's figures; those of a summary that contradicts itself are struck through. */
function SummaryCells({ result }: { result: ShownResult }) {
  const figures = [
    result.n.toLocaleString("en-US"),
    ...[result.mean, result.sd, result.min, result.p50, result.p90, result.p99, result.max].map((figure) => formatMeasure(figure)),
  ];
  return (
    <>
      {figures.map((text, i) => (
        <td key={i} className={result.summaryNote ? "num muted" : "num"}>
          {result.summaryNote ? <s title="this summary contradicts itself">{text}</s> : text}
        </td>
      ))}
    </>
  );
}
