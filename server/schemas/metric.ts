// What a metric is, field by field: shared by an experiment's metrics (experiment.ts) and the
// metrics agents advertise for their workloads (workload.ts), which must agree on every rule.
import { z } from "zod";

export const metricDirections = ["lower_is_better", "higher_is_better"] as const;
export const ZMetricDirection = z.enum(metricDirections, { error: "choose whether lower or higher is better" });

export const metricAggregations = ["mean", "median", "p90", "p95", "p99", "min", "max", "sum", "rate", "last"] as const;
export const ZMetricAggregation = z.enum(metricAggregations, { error: "choose how a run is summarised" });

export const ZMetricKey = z
  .string()
  .trim()
  .min(1, "metric key is required")
  .max(64, "metric key must be at most 64 characters")
  .regex(/^[A-Za-z0-9_.:/-]+$/, "use letters, digits and _ . : / - (e.g. upload_latency_ms)");

export const ZMetricUnit = z.string({ error: "unit is required" }).trim().min(1, "unit is required (e.g. ms, B, req/s, %)").max(32);
