// Maps a tool's parsed output onto an experiment: benchmarks become variants (split "variant")
// or metrics of one variant (split "metric"); repetitions become separate runs.
import { AppError } from "../core/errors";
import type { TResultsUpload } from "../schemas/results";
import type { ImportResult } from "./types";

export type Split = "variant" | "metric";

export interface MappingOptions {
  experiment: string;
  variant?: string;
  split?: Split;
  create: boolean;
}

const KEY_LIMIT = 64;

export function importToUpload(result: ImportResult, options: MappingOptions): TResultsUpload {
  const benchmarks = result.benchmarks;
  if (benchmarks.length === 0) throw new AppError("UNPROCESSABLE", `The ${result.format} output holds no benchmark results`);
  const split: Split = options.split ?? (options.variant && benchmarks.length > 1 ? "metric" : "variant");
  const environment = result.environment ?? {};
  const base = { experiment: options.experiment, create: options.create, experimentTitle: undefined };

  if (split === "variant") {
    const keyOf = keysByUnit(benchmarks);
    if (options.variant && benchmarks.length > 1) {
      throw new AppError(
        "BAD_REQUEST",
        `The file has ${benchmarks.length} benchmarks (${benchmarks
          .slice(0, 3)
          .map((b) => b.name)
          .join(
            ", ",
          )}${benchmarks.length > 3 ? ", …" : ""}): leave out variant to make one variant per benchmark, or use split=metric to put them all in variant "${options.variant}"`,
        {
          fieldIssues: [{ path: ["variant"], message: "one variant cannot hold several benchmarks with split=variant" }],
        },
      );
    }
    return {
      ...base,
      runs: benchmarks.flatMap((benchmark) =>
        benchmark.repetitions.map((repetition) => ({
          variant: options.variant ?? variantName(benchmark.name, benchmark.params),
          status: "succeeded" as const,
          environment: { ...environment, ...repetition.environment },
          startedAt: repetition.startedAt,
          tags: [],
          sourceDetail: result.format,
          metrics: repetition.metrics.map((metric) => metricInput(keyOf(metric), metric)),
        })),
      ),
    };
  }

  if (!options.variant) {
    throw new AppError("BAD_REQUEST", "split=metric puts every benchmark into one variant: give variant=<name>", {
      fieldIssues: [{ path: ["variant"], message: "required with split=metric" }],
    });
  }
  const rounds = Math.max(...benchmarks.map((b) => b.repetitions.length));
  const prefixed = benchmarks.length > 1;
  return {
    ...base,
    runs: Array.from({ length: rounds }, (_, round) => ({
      variant: options.variant as string,
      status: "succeeded" as const,
      environment,
      tags: [],
      sourceDetail: result.format,
      metrics: benchmarks.flatMap((benchmark) =>
        (benchmark.repetitions[round]?.metrics ?? []).map((metric) =>
          prefixed
            ? metricInput(`${variantName(benchmark.name, benchmark.params)}:${metric.key}`, metric, variantName(benchmark.name, benchmark.params))
            : metricInput(metric.key, metric),
        ),
      ),
    })).filter((run) => run.metrics.length > 0),
  };
}

/**
 * With a variant per benchmark, one metric key must mean one unit and direction across them all:
 * JMH's "score" is ops/us for a throughput benchmark and us for an average-time one. A key whose
 * benchmarks disagree becomes one metric per unit ("score:ops/us", "score:us"), so nothing is
 * compared across units or stored under the wrong one.
 */
function keysByUnit(benchmarks: ImportResult["benchmarks"]) {
  const kinds = new Map<string, Set<string>>();
  for (const metric of benchmarks.flatMap((b) => b.repetitions.flatMap((r) => r.metrics))) {
    const set = kinds.get(metric.key) ?? new Set<string>();
    set.add(`${metric.unit}|${metric.direction}`);
    kinds.set(metric.key, set);
  }
  return (metric: { key: string; unit: string }) => ((kinds.get(metric.key)?.size ?? 1) > 1 ? `${metric.key}:${metric.unit}` : metric.key);
}

/** `benchmark`: with split=metric, the benchmark the metric belongs to, for its label. */
function metricInput(rawKey: string, metric: ImportResult["benchmarks"][number]["repetitions"][number]["metrics"][number], benchmark?: string) {
  // The label keeps what the key had to lose: the original text, and with split=metric the
  // benchmark (else every benchmark's "time" would carry the same label, e.g. "Wall-clock time").
  const label = metric.label !== undefined ? (benchmark ? `${benchmark}: ${metric.label}` : metric.label) : metricKey(rawKey) === rawKey ? undefined : rawKey;
  return {
    key: metricKey(rawKey),
    unit: metric.unit,
    direction: metric.direction,
    label: label?.slice(0, 100),
    samples: metric.samples && metric.samples.length > 0 ? metric.samples : undefined,
    summary: metric.samples && metric.samples.length > 0 ? undefined : metric.summary,
    timeSeries:
      metric.timeSeries && metric.timeSeries.values.length > 0 ? { offsetsMs: metric.timeSeries.offsetsMs, values: metric.timeSeries.values } : undefined,
    value: metric.value,
  };
}

/** "BenchmarkGzip" + {size: "1KB"} → "BenchmarkGzip [size=1KB]" (unless the name has it already). */
export function variantName(name: string, params?: Record<string, string>): string {
  const extra = Object.entries(params ?? {})
    .filter(([key, value]) => !name.includes(`${key}=${value}`))
    .map(([key, value]) => `${key}=${value}`);
  return (extra.length ? `${name} [${extra.join(", ")}]` : name).slice(0, 100);
}

/** Metric keys allow letters, digits and _ . : / -; anything else becomes "_", long keys get a hash. */
export function metricKey(raw: string): string {
  const clean = raw.replace(/[^A-Za-z0-9_.:/-]+/g, "_").replace(/^_+|_+$/g, "") || "value";
  if (clean.length <= KEY_LIMIT) return clean;
  let hash = 0;
  for (const char of raw) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return `${clean.slice(0, KEY_LIMIT - 9)}-${hash.toString(36).padStart(8, "0").slice(0, 8)}`;
}
