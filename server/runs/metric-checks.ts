// The checks of a run's metrics against the experiment they are stored into, shared by every
// ingest path (uploads, imports and agents' completes): each names the field it is about.
import type { FieldIssue } from "../core/errors";
import type { TRunMetricInput } from "../schemas/results";

export interface KnownMetric {
  unit: string;
  direction: string;
}

/** A metric key given twice in one run (a run holds one result per metric). */
export function repeatedMetricKeys(runs: { metrics: { key: string }[] }[], runPath: (r: number) => (string | number)[]): FieldIssue[] {
  const issues: FieldIssue[] = [];
  runs.forEach((run, r) => {
    const seen = new Set<string>();
    run.metrics.forEach((metric, m) => {
      if (seen.has(metric.key))
        issues.push({ path: [...runPath(r), "metrics", m, "key"], message: `metric "${metric.key}" appears more than once in this run` });
      seen.add(metric.key);
    });
  });
  return issues;
}

/** A unit or direction that contradicts the metric the experiment already has. */
export function contradictions(metric: Pick<TRunMetricInput, "key" | "unit" | "direction">, known: KnownMetric, path: (string | number)[]): FieldIssue[] {
  const issues: FieldIssue[] = [];
  if (metric.unit && metric.unit !== known.unit)
    issues.push({ path: [...path, "unit"], message: `metric "${metric.key}" is measured in ${known.unit}, not ${metric.unit}` });
  if (metric.direction && metric.direction !== known.direction)
    issues.push({ path: [...path, "direction"], message: `metric "${metric.key}" is ${known.direction.replaceAll("_", " ")}` });
  return issues;
}
