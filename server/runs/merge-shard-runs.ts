// One run from the run documents of a job group's shards (a load test split over several agents,
// docs/agent-protocol.md "Job groups"). Each metric is merged by what its figures are:
// - with a histogram: the exact merge of the shards' histograms (bucket counts summed), so the
//   merged percentiles are those of every request of every shard; per-second percentile series
//   cannot be merged exactly and stay with the shards;
// - `<name>_p50|p90|p95|p99|p999` beside a histogram metric `<name>`: that percentile of the
//   merged histogram;
// - a count or a rate (unit `count`, bytes, or any `…/s`): values summed, series summed second by
//   aligned second (the shards started at one instant);
// - `<name>_peak` beside a summed series `<name>`: the busiest second of the summed series;
// - raw samples: concatenated.
// A probe's metrics (`<probe>.<suffix>`) come from the one shard that samples the system under
// test for the group, as it reported them. A metric that fits none of these, or that not every
// shard reported, is left out of the merged run with a warning saying so.
import { AppError } from "../core/errors";
import type { TJobRun } from "../schemas/jobs";
import { MAX_RUN_WARNINGS, MAX_WARNING_CHARS } from "../schemas/results";
import { histogramFigures, mergeEncodedHistograms, type PercentileKey } from "./histogram";

type TMetric = TJobRun["metrics"][number];
type TSeries = NonNullable<TMetric["timeSeries"]>;

/** A shard whose agent was lost mid-run, left out of a partial run (server/agents/lost-shards.ts). */
export interface MissingShard {
  shard: number;
  shards: number;
  agentName: string;
}

/** The warning a partial run carries first: how many agents measured it and whose share is missing. */
export function partialWarning(measured: number, missing: readonly MissingShard[]): string {
  const total = measured + missing.length;
  const lost = missing.map((shard) => `shard ${shard.shard + 1} of ${shard.shards} (agent ${shard.agentName})`).join(", ");
  return `partial run: measured by ${measured} of ${total} agents — ${lost} lost mid-run (lease expired), so ${missing.length === 1 ? "its" : "their"} share of the load is missing from these figures`;
}

export interface ShardRun {
  /** The agent that ran the shard, to name it in warnings. */
  agentName: string;
  run: TJobRun;
}

const ADDITIVE_UNITS = new Set(["count", "B", "KB", "MB", "GB", "KiB", "MiB", "GiB"]);

/** A count, a size or a rate: figures that add up across load generators. */
export function isAdditiveUnit(unit: string | undefined): boolean {
  return unit !== undefined && (ADDITIVE_UNITS.has(unit) || unit.endsWith("/s"));
}

const PERCENTILE_SUFFIX = /^(.+)_p(50|90|95|99|999)$/;
const PEAK_SUFFIX = /^(.+)_peak$/;

/**
 * The merged run of a group's shards (at least one); refuses histograms recorded at different
 * scales. `probeNames`: the group's probes, whose metrics one shard reports for all.
 */
export function mergeShardRuns(shards: readonly ShardRun[], probeNames: readonly string[] = [], missing: readonly MissingShard[] = []): TJobRun {
  const first = shards[0];
  if (!first) throw new RangeError("mergeShardRuns needs at least one shard");
  const warnings: string[] = missing.length ? [partialWarning(shards.length, missing)] : [];
  const keys = [...new Set(shards.flatMap((shard) => shard.run.metrics.map((metric) => metric.key)))];
  const metricsOf = (key: string) => shards.map((shard) => shard.run.metrics.find((metric) => metric.key === key));
  const complete = new Map<string, TMetric[]>();
  const merged = new Map<string, TMetric>();
  for (const key of keys) {
    const found = metricsOf(key);
    const sampled = probeNames.some((name) => key.startsWith(`${name}.`)) ? found.find((metric) => metric !== undefined) : undefined;
    if (sampled) {
      merged.set(key, sampled);
      continue;
    }
    const missing = shards.filter((_, i) => !found[i]).map((shard) => shard.agentName);
    if (missing.length) warnings.push(`metric "${key}" is left out of the merged run: ${missing.join(", ")} did not report it`);
    else complete.set(key, found as TMetric[]);
  }

  const summedSeries = new Map<string, TSeries>();
  const histograms = new Map<string, { histogram: string; scale: number }>();
  // Histograms and additive figures first: the percentile and peak rules read them.
  for (const [key, parts] of complete) {
    const head = parts[0] as TMetric;
    const base = { key, unit: head.unit, direction: head.direction, aggregation: head.aggregation, label: head.label };
    if (parts.every((part) => part.histogram)) {
      const scale = head.histogramScale as number;
      const other = parts.findIndex((part) => part.histogramScale !== scale);
      if (other >= 0)
        throw new AppError(
          "UNPROCESSABLE",
          `metric "${key}": ${shards[other]?.agentName} recorded its histogram at scale ${parts[other]?.histogramScale}, ${first.agentName} at ${scale}; histograms merge only at one scale`,
        );
      const histogram = mergeEncodedHistograms(parts.map((part) => part.histogram as string));
      histograms.set(key, { histogram, scale });
      merged.set(key, { ...base, histogram, histogramScale: scale });
    } else if (isAdditiveUnit(head.unit)) {
      const metric: TMetric = { ...base };
      if (parts.every((part) => part.value !== undefined)) metric.value = parts.reduce((sum, part) => sum + (part.value as number), 0);
      if (parts.every((part) => part.timeSeries)) {
        const series = sumByAlignedSecond(shards.map((shard, i) => ({ run: shard.run, series: parts[i]?.timeSeries as TSeries })));
        summedSeries.set(key, series);
        metric.timeSeries = series;
      }
      if (metric.value === undefined && metric.timeSeries === undefined && parts.every((part) => part.summary?.n === 1)) {
        // A single figure sent as a summary of one value (a total).
        metric.value = parts.reduce((sum, part) => sum + (part.summary?.mean as number), 0);
      }
      if (metric.value !== undefined || metric.timeSeries !== undefined) merged.set(key, metric);
    } else if (parts.every((part) => part.samples)) {
      merged.set(key, { ...base, samples: parts.flatMap((part) => part.samples as number[]) });
    }
  }
  for (const [key, parts] of complete) {
    if (merged.has(key)) continue;
    const head = parts[0] as TMetric;
    const base = { key, unit: head.unit, direction: head.direction, aggregation: head.aggregation, label: head.label };
    const percentile = PERCENTILE_SUFFIX.exec(key);
    const source = percentile ? histograms.get(percentile[1] as string) : undefined;
    const peakOf = PEAK_SUFFIX.exec(key);
    const peakSeries = peakOf ? summedSeries.get(peakOf[1] as string) : undefined;
    if (percentile && source) {
      const figures = histogramFigures(source.histogram, source.scale);
      if (figures) merged.set(key, { ...base, value: figures[`p${percentile[2]}` as PercentileKey] });
    } else if (peakSeries) {
      merged.set(key, { ...base, value: Math.max(...peakSeries.values) });
    } else {
      warnings.push(`metric "${key}" is left out of the merged run: its figures do not add up across agents (each agent's own stays with its shard)`);
    }
  }

  const times = (field: "startedAt" | "finishedAt") =>
    shards
      .map((shard) => shard.run[field])
      .filter((time): time is string => time !== undefined)
      .map((time) => Date.parse(time));
  const started = times("startedAt");
  const finished = times("finishedAt");
  const allWarnings = [...shards.flatMap((shard) => (shard.run.warnings ?? []).map((warning) => `${shard.agentName}: ${warning}`)), ...warnings].map(
    (warning) => (warning.length > MAX_WARNING_CHARS ? `${warning.slice(0, MAX_WARNING_CHARS - 1)}…` : warning),
  );
  return {
    status: shards.some((shard) => shard.run.status === "failed") ? "failed" : "succeeded",
    ...(started.length ? { startedAt: new Date(Math.min(...started)).toISOString() } : {}),
    ...(finished.length ? { finishedAt: new Date(Math.max(...finished)).toISOString() } : {}),
    environment: {
      // The agent's registered name last: an agent's own environment may say `agent` too (the Go
      // agent describes itself there), kept as `reportedAgent`.
      agents: shards.map(({ agentName, run }) => {
        const { agent: reported, ...environment } = (run.environment ?? {}) as Record<string, unknown>;
        return { agent: agentName, ...environment, ...(reported !== undefined && reported !== agentName ? { reportedAgent: reported } : {}) };
      }),
      ...(missing.length ? { missingShards: missing.map((shard) => ({ agent: shard.agentName, shard: shard.shard })) } : {}),
    },
    ...(first.run.gitCommit ? { gitCommit: first.run.gitCommit } : {}),
    ...(first.run.gitBranch ? { gitBranch: first.run.gitBranch } : {}),
    ...(first.run.gitCommitMessage ? { gitCommitMessage: first.run.gitCommitMessage } : {}),
    ...(first.run.gitCommitTime ? { gitCommitTime: first.run.gitCommitTime } : {}),
    tags: [...new Set([...shards.flatMap((shard) => shard.run.tags), ...(missing.length ? ["partial"] : [])])],
    sourceDetail: `${shards.length} agents: ${shards.map((shard) => shard.agentName).join(", ")}`.slice(0, 200),
    ...(allWarnings.length ? { warnings: allWarnings.slice(0, MAX_RUN_WARNINGS) } : {}),
    metrics: keys.flatMap((key) => merged.get(key) ?? []),
  };
}

/** The instant of each point of a series, in epoch milliseconds. */
function pointTimes(run: TJobRun, series: TSeries): number[] {
  const start = Date.parse(series.startedAt ?? run.startedAt ?? "");
  if (Number.isNaN(start)) throw new AppError("UNPROCESSABLE", "a shard's time series has no start (give timeSeries.startedAt or the run's startedAt)");
  return series.values.map((_, i) => start + (series.offsetsMs ? (series.offsetsMs[i] as number) : i * (series.intervalMs as number)));
}

/**
 * The shards' series summed point by point on a grid of the shards' common interval (1 s when
 * they differ) from the earliest first point: each point goes to the nearest step, so the few
 * milliseconds between the shards' clocks do not split one second in two.
 */
export function sumByAlignedSecond(parts: readonly { run: TJobRun; series: TSeries }[]): TSeries {
  const intervals = new Set(parts.map((part) => part.series.intervalMs));
  const step = intervals.size === 1 && parts[0]?.series.intervalMs !== undefined ? parts[0].series.intervalMs : 1000;
  const timed = parts.map((part) => ({ times: pointTimes(part.run, part.series), values: part.series.values }));
  const origin = Math.min(...timed.flatMap((part) => part.times));
  const values: number[] = [];
  for (const part of timed) {
    part.times.forEach((time, i) => {
      const index = Math.round((time - origin) / step);
      while (values.length <= index) values.push(0);
      values[index] = (values[index] as number) + (part.values[i] as number);
    });
  }
  return { startedAt: new Date(origin).toISOString(), intervalMs: step, values };
}
