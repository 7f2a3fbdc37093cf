// The metrics probes report, one table the agents implement (docs/agent-protocol.md, "Probes"):
// which suffix each preset or kind yields, in which unit, which way is better and how a run's
// interval values become its figure. The variant form offers a probe's metrics from it with one
// click, and the server counts them as reported when it checks an experiment's metrics against
// its variants (workload-fit.ts). Pure: no database, so the form may import it.
import type { metricAggregations } from "../schemas/metric";
import type { TProbe, TProbePreset, TProbeSeries, TProbeSeriesAggregation } from "../schemas/probe";
import { workloadOf, type TWorkloadMetric } from "../schemas/workload";

type TMetricAggregation = (typeof metricAggregations)[number];

/** What yields a metric: a preset of a prometheus probe, or a process probe itself. */
export type ProbeMetricSource = { kind: "prometheus"; preset: TProbePreset } | { kind: "process" };

export interface ProbeMetricSpec {
  suffix: string;
  unit: string;
  direction: "lower_is_better";
  aggregation: TMetricAggregation;
  description: string;
  from: ProbeMetricSource[];
}

const preset = (name: TProbePreset): ProbeMetricSource => ({ kind: "prometheus", preset: name });
const processProbe: ProbeMetricSource = { kind: "process" };

const cpuValue = "CPU seconds used in the interval ÷ the interval's seconds × 100 (100 = one core busy; can exceed 100)";

/** Every suffix a probe can report (the agents emit exactly these keys, units, directions and aggregations). */
export const probeMetricCatalog: readonly ProbeMetricSpec[] = [
  {
    suffix: "cpu_percent",
    unit: "%",
    direction: "lower_is_better",
    aggregation: "mean",
    description: `Process CPU, mean over the run: ${cpuValue}`,
    from: [preset("process"), processProbe],
  },
  {
    suffix: "cpu_percent_max",
    unit: "%",
    direction: "lower_is_better",
    aggregation: "max",
    description: `Process CPU, the busiest interval: ${cpuValue}`,
    from: [preset("process"), processProbe],
  },
  {
    suffix: "rss",
    unit: "B",
    direction: "lower_is_better",
    aggregation: "mean",
    description: "Resident memory, mean of the readings at the end of each interval",
    from: [preset("process"), processProbe],
  },
  {
    suffix: "rss_peak",
    unit: "B",
    direction: "lower_is_better",
    aggregation: "max",
    description: "Resident memory, the highest reading",
    from: [preset("process"), processProbe],
  },
  {
    suffix: "threads",
    unit: "count",
    direction: "lower_is_better",
    aggregation: "mean",
    description: "Threads of the process (/proc/PID/status), mean of the readings",
    from: [processProbe],
  },
  {
    suffix: "heap_used",
    unit: "B",
    direction: "lower_is_better",
    aggregation: "mean",
    description: 'JVM heap used (sum of jvm_memory_used_bytes{area="heap"}), mean of the readings',
    from: [preset("jvm")],
  },
  {
    suffix: "heap_used_peak",
    unit: "B",
    direction: "lower_is_better",
    aggregation: "max",
    description: "JVM heap used, the highest reading",
    from: [preset("jvm")],
  },
  {
    suffix: "gc_count",
    unit: "count",
    direction: "lower_is_better",
    aggregation: "sum",
    description: "Garbage collections during the run (the counter's increase over the measured window)",
    from: [preset("jvm"), preset("go")],
  },
  {
    suffix: "gc_time",
    unit: "ms",
    direction: "lower_is_better",
    aggregation: "sum",
    description: "Time spent in garbage-collection pauses during the run",
    from: [preset("jvm"), preset("go")],
  },
  {
    suffix: "threads_live",
    unit: "count",
    direction: "lower_is_better",
    aggregation: "mean",
    description: "JVM live threads (jvm_threads_live_threads), mean of the readings",
    from: [preset("jvm")],
  },
  {
    suffix: "heap_inuse",
    unit: "B",
    direction: "lower_is_better",
    aggregation: "mean",
    description: "Go heap in use (go_memstats_heap_inuse_bytes), mean of the readings",
    from: [preset("go")],
  },
  {
    suffix: "heap_inuse_peak",
    unit: "B",
    direction: "lower_is_better",
    aggregation: "max",
    description: "Go heap in use, the highest reading",
    from: [preset("go")],
  },
  {
    suffix: "host_cpu_percent",
    unit: "%",
    direction: "lower_is_better",
    aggregation: "mean",
    description: "Host CPU from node_exporter, mean over the run: 100 × (1 − idle ÷ all modes) across all CPUs (100 = the whole host busy)",
    from: [preset("node")],
  },
  {
    suffix: "host_cpu_percent_max",
    unit: "%",
    direction: "lower_is_better",
    aggregation: "max",
    description: "Host CPU, the busiest interval",
    from: [preset("node")],
  },
  {
    suffix: "host_memory_used",
    unit: "B",
    direction: "lower_is_better",
    aggregation: "mean",
    description: "Host memory used (MemTotal − MemAvailable), mean of the readings",
    from: [preset("node")],
  },
  {
    suffix: "host_memory_used_peak",
    unit: "B",
    direction: "lower_is_better",
    aggregation: "max",
    description: "Host memory used, the highest reading",
    from: [preset("node")],
  },
];

const yields = (spec: ProbeMetricSpec, source: ProbeMetricSource) =>
  spec.from.some((from) => from.kind === source.kind && (from.kind === "process" || (source.kind === "prometheus" && from.preset === source.preset)));

/** The catalog's entries a prometheus preset or a process probe yields, in the catalog's order. */
export function probeMetricSpecs(source: ProbeMetricSource): ProbeMetricSpec[] {
  return probeMetricCatalog.filter((spec) => yields(spec, source));
}

/** A custom series' run figure: a rate is the mean of the intervals' rates, a delta the sum of their increases, a gauge its own reduction. */
const seriesAggregation: Record<TProbeSeriesAggregation, TMetricAggregation> = {
  rate: "mean",
  delta: "sum",
  mean: "mean",
  max: "max",
  min: "min",
  last: "last",
};

function seriesMetric(probeName: string, series: TProbeSeries): TWorkloadMetric {
  const labels = Object.entries(series.labels ?? {})
    .map(([name, value]) => `${name}="${value}"`)
    .join(",");
  const read = series.aggregation === "rate" ? "per-second rate of" : series.aggregation === "delta" ? "increase of" : `${series.aggregation} of`;
  return {
    key: `${probeName}.${series.key}`,
    unit: series.unit,
    direction: series.direction,
    aggregation: seriesAggregation[series.aggregation],
    description: `${read} ${series.metric}${labels ? `{${labels}}` : ""}`,
  };
}

/** Every metric a probe reports, keyed `<name>.<suffix>` (presets in the catalog's order, then custom series). */
export function probeMetrics(probe: TProbe): TWorkloadMetric[] {
  const specs =
    probe.kind === "process" ? probeMetricSpecs(processProbe) : probeMetricCatalog.filter((spec) => probe.presets.some((name) => yields(spec, preset(name))));
  const fromCatalog = specs.map((spec) => ({
    key: `${probe.name}.${spec.suffix}`,
    unit: spec.unit,
    direction: spec.direction,
    aggregation: spec.aggregation,
    description: spec.description,
  }));
  const custom = probe.kind === "prometheus" ? (probe.series ?? []).map((series) => seriesMetric(probe.name, series)) : [];
  return [...fromCatalog, ...custom];
}

/** A custom series whose key is one its probe's presets already report: two metrics of one key. */
export function seriesKeyClashes(probe: TProbe): { index: number; key: string }[] {
  if (probe.kind !== "prometheus") return [];
  const presetSuffixes = new Set(probeMetricCatalog.filter((spec) => probe.presets.some((name) => yields(spec, preset(name)))).map((spec) => spec.suffix));
  return (probe.series ?? []).flatMap((series, index) => (presetSuffixes.has(series.key) ? [{ index, key: series.key }] : []));
}

/** The names of the probes the variants' configs list, each once, in order. */
export function probeNamesOf(configs: unknown[]): string[] {
  return [...new Set(configs.flatMap((config) => (workloadOf(config)?.probes ?? []).map((probe) => probe.name)))];
}

/** The probe whose metric `key` is (`<probe>.<suffix>`), or null for a metric of the client side (the workload's own). */
export function probeOfMetric(key: string, probeNames: string[]): string | null {
  return probeNames.find((name) => key.startsWith(`${name}.`)) ?? null;
}
