"use client";
// What a chosen workload reports, as its agents advertise it: each metric with its unit, which
// way is better and how a run is summarised, added to the experiment's metrics with one click
// (each, or all at once) so the keys match what the agent sends.
import { directionLabel } from "~/components/format";
import type { AdvertisedWorkload } from "~/server/agents/agent-admin";
import type { TWorkloadMetric } from "~/server/schemas/workload";

interface Props {
  workload: AdvertisedWorkload;
  /** The experiment's metric keys now. */
  metricKeys: string[];
  onAdd: (metrics: TWorkloadMetric[]) => void;
}

export function WorkloadMetrics({ workload, metricKeys, onAdd }: Props) {
  if (workload.metrics.length === 0) {
    return workload.metricsKnown ? null : (
      <p className="muted small workload-availability">
        An agent that offers “{workload.name}” does not say which metrics it reports: add them by hand, with the keys the agent sends.
      </p>
    );
  }
  const have = new Set(metricKeys);
  const missing = workload.metrics.filter((metric) => !have.has(metric.key));
  const everyAgent = workload.agents.map((agent) => agent.name);
  return (
    <div className="workload-metrics" data-testid="workload-metrics">
      <div className="workload-settings-head">
        <span className="label">It reports</span>
        {missing.length ? (
          <button type="button" className="button small" onClick={() => onAdd(missing)}>
            {missing.length === workload.metrics.length ? `Add all ${missing.length} metrics` : `Add the other ${missing.length}`}
          </button>
        ) : (
          <span className="muted small">all in the experiment&apos;s metrics</span>
        )}
      </div>
      <ul className="workload-metric-list">
        {workload.metrics.map((metric) => {
          const added = have.has(metric.key);
          const partial =
            metric.reportedBy.length < everyAgent.length ? ` Only ${metric.reportedBy.join(", ")} report${metric.reportedBy.length === 1 ? "s" : ""} it.` : "";
          return (
            <li key={metric.key} data-testid="workload-metric">
              <span className="workload-metric-name">
                <code>{metric.key}</code>{" "}
                <span className="muted small">
                  {metric.unit} · {directionLabel[metric.direction]} · per run: {metric.aggregation}
                </span>
              </span>
              {metric.description || partial ? (
                <span className="muted small workload-metric-description">
                  {metric.description}
                  {partial}
                </span>
              ) : null}
              {added ? (
                <span className="badge good">added</span>
              ) : (
                <button type="button" className="button small" aria-label={`Add metric ${metric.key}`} onClick={() => onAdd([metric])}>
                  Add
                </button>
              )}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
