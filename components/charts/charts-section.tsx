// The experiment page's charts card: one MetricCharts per metric, then the figures several probes
// report overlaid across them (TargetOverlayChart), or why there are none. Server
// component: it only lays out what experiment.results returned.
import type { TExperimentCharts } from "~/server/schemas/charts";
import { MetricCharts } from "./metric-charts";
import { TargetOverlayChart } from "./target-overlay-chart";

export type ChartsResult = { data: TExperimentCharts } | { error: string };

export function ChartsSection({ charts }: { charts: ChartsResult }) {
  return (
    <section className="card" aria-labelledby="charts-heading">
      <h2 id="charts-heading">Charts {"data" in charts ? <span className="muted small">against {charts.data.baseline}</span> : null}</h2>
      {"error" in charts ? (
        <p className="alert" role="alert">
          The charts could not be loaded: {charts.error}
        </p>
      ) : charts.data.metrics.length === 0 ? (
        <p className="muted">This experiment has no metrics yet.</p>
      ) : (
        <>
          {charts.data.metrics.map((metric) => (
            <MetricCharts key={metric.key} metric={metric} variants={charts.data.variants} experimentSlug={charts.data.experiment.slug} />
          ))}
          {charts.data.targets.map((overlay) => (
            <TargetOverlayChart
              key={overlay.suffix}
              overlay={overlay}
              variants={charts.data.variants}
              fileName={`${charts.data.experiment.slug}-targets-${overlay.suffix}`.replace(/[^A-Za-z0-9._-]+/g, "_")}
            />
          ))}
        </>
      )}
    </section>
  );
}
