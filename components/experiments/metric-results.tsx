"use client";
// Per metric, each run's stored summary: the numbers the tool printed or the samples gave, a page
// at a time (the first page comes with the page).
import { directionLabel } from "~/components/format";
import { formatMeasure } from "~/server/display";
import { useTRPC } from "~/components/trpc/react";
import type { ExperimentDetail } from "~/server/services/experiments";
import type { MetricResultsPage } from "~/server/services/experiment-runs";
import { Pager } from "./pager";
import { usePagedList } from "./use-paged-list";

type Metric = ExperimentDetail["experiment"]["metrics"][number];

interface MetricResultsProps {
  projectSlug: string;
  experimentSlug: string;
  metric: Pick<Metric, "key" | "label" | "unit" | "direction" | "aggregation">;
  /** The first page, loaded with the page. */
  first: MetricResultsPage;
}

export function MetricResults({ projectSlug, experimentSlug, metric, first }: MetricResultsProps) {
  const trpc = useTRPC();
  const { page, pager } = usePagedList(first, (offset) =>
    trpc.experiment.metricResults.queryOptions({ projectSlug, experimentSlug, metricKey: metric.key, offset, limit: first.limit }),
  );
  const rows = page.rows;
  if (page.total === 0) return null;
  return (
    <section className="card" aria-label={`Results: ${metric.key}`}>
      <h2>
        <code>{metric.key}</code> <span className="muted small">{metric.label ? `${metric.label} · ` : ""}{metric.unit} · {directionLabel[metric.direction]} · per run: {metric.aggregation}</span>
      </h2>
      <div className="table-wrap">
        <table aria-label={`Runs of ${metric.key}`}>
          <thead>
            <tr>
              <th>Variant</th>
              <th className="num">#</th>
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
                </td>
                <td className="num">{run.repetition}</td>
                <td className="num">{result.n.toLocaleString("en-US")}</td>
                <td className="num">{formatMeasure(result.mean)}</td>
                <td className="num">{formatMeasure(result.sd)}</td>
                <td className="num">{formatMeasure(result.min)}</td>
                <td className="num">{formatMeasure(result.p50)}</td>
                <td className="num">{formatMeasure(result.p90)}</td>
                <td className="num">{formatMeasure(result.p99)}</td>
                <td className="num">{formatMeasure(result.max)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <Pager noun="run" label={`runs of ${metric.key}`} {...pager} />
    </section>
  );
}
