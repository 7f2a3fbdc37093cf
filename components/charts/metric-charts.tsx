"use client";
// All charts of one metric behind a row of toggle buttons: bars, percentiles, distribution, runs,
// over time — only those the stored data can draw. One chart at a time keeps a long experiment
// page scannable; the choice is per metric.
import { useState } from "react";
import type { TMetricCharts } from "~/server/schemas/charts";
import { VariantBarChart } from "./bar-chart";
import { ChartFrame } from "./chart-frame";
import { DistributionChart } from "./distribution-chart";
import type { ChartVariant } from "./palette";
import { PercentileChart } from "./percentile-chart";
import { Segmented } from "./segmented";
import { StripPlot } from "./strip-plot";
import { TimeSeriesChart } from "./time-series-chart";

export type ChartKind = "bars" | "percentiles" | "distribution" | "runs" | "time";

const VIEWS: readonly { value: ChartKind; label: string; has: (metric: TMetricCharts) => boolean }[] = [
  { value: "bars", label: "Bars", has: (m) => m.bars.length > 0 },
  { value: "percentiles", label: "Percentiles", has: (m) => m.percentiles.length > 0 },
  { value: "distribution", label: "Distribution", has: (m) => m.distribution !== null },
  { value: "runs", label: "Runs", has: (m) => m.runs.length > 0 },
  { value: "time", label: "Over time", has: (m) => m.timeSeries.length > 0 },
];

/** File name of a downloaded chart: experiment, metric and kind, safe on every file system. */
function fileNameOf(experimentSlug: string, metricKey: string, kind: string): string {
  return `${experimentSlug}-${metricKey}-${kind}`.replace(/[^A-Za-z0-9._-]+/g, "_");
}

export function MetricCharts({ metric, variants, experimentSlug }: { metric: TMetricCharts; variants: readonly ChartVariant[]; experimentSlug: string }) {
  const available = VIEWS.filter((view) => view.has(metric));
  const [chosen, setChosen] = useState<ChartKind>(available[0]?.value ?? "bars");
  const view = available.some((v) => v.value === chosen) ? chosen : (available[0]?.value ?? "bars");
  const props = { metric, variants, fileName: fileNameOf(experimentSlug, metric.key, view) };
  const headingId = `charts-${metric.key.replace(/[^A-Za-z0-9_-]+/g, "_")}`;

  return (
    <section className="metric-charts" aria-labelledby={headingId} data-metric={metric.key}>
      <div className="metric-charts-head">
        <h3 id={headingId}>
          <code>{metric.key}</code>{" "}
          <span className="muted small">
            {metric.label ? `${metric.label} · ` : ""}
            {metric.unit} · {metric.direction === "lower_is_better" ? "lower is better" : "higher is better"}
          </span>
        </h3>
        {available.length > 1 ? <Segmented label={`Chart of ${metric.key}`} options={available} value={view} onChange={setChosen} /> : null}
      </div>
      {available.length === 0 ? (
        <ChartFrame
          chartId={`${metric.key}/empty`}
          label={`Charts of ${metric.key}`}
          caption="Upload or import runs that report this metric to see its charts."
          fileName={props.fileName}
          height={140}
          empty="No runs with this metric yet"
        >
          {null}
        </ChartFrame>
      ) : view === "bars" ? (
        <VariantBarChart {...props} />
      ) : view === "percentiles" ? (
        <PercentileChart {...props} />
      ) : view === "distribution" ? (
        <DistributionChart {...props} />
      ) : view === "runs" ? (
        <StripPlot {...props} />
      ) : (
        <TimeSeriesChart {...props} />
      )}
    </section>
  );
}
