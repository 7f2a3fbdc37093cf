// Turns what a workload recorded into the run's metrics for the experiment that asked for them:
// only the metrics the job lists (an experiment may have others, filled by uploads), each in the
// unit the experiment uses when the two units are of one family (µs → ms, B → KiB). A job that
// lists none of what the workload records cannot be stored, and says why.
import type { JobMetric, RunMetric } from "../api/protocol";
import type { MemoryRecorder } from "../workloads/recorder";
import type { MetricSpec } from "../workloads/workload";

const UNIT_FAMILIES: Record<string, Record<string, number>> = {
  time: { ns: 1e-9, us: 1e-6, µs: 1e-6, ms: 1e-3, s: 1 },
  bytes: { B: 1, KB: 1e3, kB: 1e3, KiB: 1024, MB: 1e6, MiB: 1024 ** 2, GB: 1e9, GiB: 1024 ** 3 },
};

/** The factor from `from` to `to` when both are units of one family; undefined otherwise. */
export function unitFactor(from: string, to: string): number | undefined {
  if (from === to) return 1;
  for (const family of Object.values(UNIT_FAMILIES)) {
    const a = family[from];
    const b = family[to];
    if (a !== undefined && b !== undefined) return a / b;
  }
  return undefined;
}

export function runMetrics(
  requested: readonly JobMetric[],
  specs: readonly MetricSpec[],
  recorder: MemoryRecorder,
): { metrics: RunMetric[]; missing: string[] } | { problem: string } {
  const recorded = specs.filter((spec) => recorder.recordedKeys().includes(spec.key));
  const wanted = requested.length ? requested : recorded.map((spec) => ({ key: spec.key, unit: spec.unit, direction: spec.direction }));
  const metrics: RunMetric[] = [];
  const missing: string[] = [];
  for (const metric of wanted) {
    const spec = recorded.find((candidate) => candidate.key === metric.key);
    if (!spec) {
      missing.push(metric.key);
      continue;
    }
    // A unit of another family goes as recorded; the server then refuses it with a clear message.
    const unit = metric.unit ?? spec.unit;
    const factor = unitFactor(spec.unit, unit);
    const scale = (value: number) => (factor === undefined || factor === 1 ? value : value * factor);
    const samples = recorder.samples.get(spec.key);
    const summary = recorder.summaries.get(spec.key);
    const value = recorder.values.get(spec.key);
    metrics.push({
      key: spec.key,
      unit: factor === undefined ? spec.unit : unit,
      direction: metric.direction ?? spec.direction,
      ...(samples ? { samples: samples.map(scale) } : {}),
      ...(summary && !samples
        ? {
            summary: {
              n: summary.n,
              mean: scale(summary.mean),
              ...(summary.sd !== undefined ? { sd: scale(summary.sd) } : {}),
              ...(summary.min !== undefined ? { min: scale(summary.min) } : {}),
              ...(summary.max !== undefined ? { max: scale(summary.max) } : {}),
            },
          }
        : {}),
      ...(value !== undefined ? { value: scale(value) } : {}),
    });
  }
  if (metrics.length === 0) {
    const offered = specs.map((spec) => `${spec.key} (${spec.unit})`).join(", ");
    return { problem: `the workload reports none of the experiment's metrics (${missing.join(", ")}); it reports ${offered}` };
  }
  return { metrics, missing };
}
