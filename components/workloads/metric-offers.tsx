"use client";
// Metrics something reports (a workload, a probe), each with its unit, which way is better and how
// a run is summarised, added to the experiment's metrics with one click (each, or all at once) so
// the keys match what the agent sends.
import type { ReactNode } from "react";
import { directionLabel } from "~/components/format";
import type { TWorkloadMetric } from "~/server/schemas/workload";

interface Props {
  metrics: (TWorkloadMetric & { note?: string })[];
  /** The experiment's metric keys now. */
  metricKeys: string[];
  onAdd: (metrics: TWorkloadMetric[]) => void;
  heading: ReactNode;
  /** data-testid of the list and of each metric in it. */
  testId: string;
  itemTestId: string;
}

export function MetricOffers({ metrics, metricKeys, onAdd, heading, testId, itemTestId }: Props) {
  const have = new Set(metricKeys);
  const missing = metrics.filter((metric) => !have.has(metric.key));
  return (
    <div className="workload-metrics" data-testid={testId}>
      <div className="workload-settings-head">
        <span className="label">{heading}</span>
        {missing.length ? (
          <button type="button" className="button small" onClick={() => onAdd(missing)}>
            {missing.length === metrics.length ? `Add all ${missing.length} metrics` : `Add the other ${missing.length}`}
          </button>
        ) : (
          <span className="muted small">all in the experiment&apos;s metrics</span>
        )}
      </div>
      <ul className="workload-metric-list">
        {metrics.map((metric) => (
          <li key={metric.key} data-testid={itemTestId}>
            <span className="workload-metric-name">
              <code>{metric.key}</code>{" "}
              <span className="muted small">
                {metric.unit} · {directionLabel[metric.direction]} · per run: {metric.aggregation}
              </span>
            </span>
            {metric.description || metric.note ? (
              <span className="muted small workload-metric-description">
                {metric.description}
                {metric.note}
              </span>
            ) : null}
            {have.has(metric.key) ? (
              <span className="badge good">added</span>
            ) : (
              <button type="button" className="button small" aria-label={`Add metric ${metric.key}`} onClick={() => onAdd([metric])}>
                Add
              </button>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}
