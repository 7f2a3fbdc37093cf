"use client";
// What a chosen workload reports, as its agents advertise it, offered with one click
// (metric-offers.tsx); a metric only some of the agents report says which.
import type { AdvertisedWorkload } from "~/server/agents/agent-admin";
import type { TWorkloadMetric } from "~/server/schemas/workload";
import { MetricOffers } from "./metric-offers";

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
  const agents = workload.agents.length;
  const metrics = workload.metrics.map(({ reportedBy, ...metric }) => ({
    ...metric,
    note: reportedBy.length < agents ? ` Only ${reportedBy.join(", ")} report${reportedBy.length === 1 ? "s" : ""} it.` : undefined,
  }));
  return <MetricOffers metrics={metrics} metricKeys={metricKeys} onAdd={onAdd} heading="It reports" testId="workload-metrics" itemTestId="workload-metric" />;
}
