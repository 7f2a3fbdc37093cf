// Importer for JMH's JSON result file (`-rf json`): an array with one entry per benchmark method
// and @Param combination. Each fork is an independent JVM, so each fork becomes one repetition:
//
//   score       the primary metric. thrpt → higher is better, avgt/sample/ss → lower. Samples are
//               the fork's measurement-iteration scores (rawData). Mode "sample" has
//               rawDataHistogram (value → count per iteration) instead; that becomes a summary
//               (n, mean, sd, min, max, percentiles) per fork, since expanding it would mean
//               millions of numbers.
//   <secondary> every secondary metric with numeric rawData, e.g. gc.alloc.rate.norm (B/op), with
//               the key JMH gives (older versions prefix "·", which is dropped). Sample mode's
//               p0.50…p1.00 entries are skipped: the histogram summary already holds them.
//
// Units: "X/op" for a time unit X becomes X (ASCII: "ns", "us", "ms", "s"), "B/op" → "B",
// "MB/sec" → "MB/s", "counts" → "count"; rates such as "ops/s" and "ops/ms" stay as printed.
import { z } from "zod";
import { describeIssues, foreignHint, parseJsonBody } from "./body-checks";
import type { Direction, ImportedBenchmark, ImportedMetric, ImportedRepetition, ImportedSummary, Importer } from "./types";
import { ImportFormatError } from "./types";

const FORMAT = "jmh";
const EXPECTED = 'a JSON array of JMH results with "benchmark" and "primaryMetric"';

// JMH writes NaN as the string "NaN" (e.g. scoreError with one sample), so numbers may be strings.
const ZNumberish = z.union([z.number(), z.string()]);
const ZBucket = z.tuple([z.number().nonnegative(), z.number().int().nonnegative()]);

const ZPrimaryMetric = z.object({
  score: ZNumberish,
  scoreUnit: z.string().min(1),
  rawData: z.array(z.array(ZNumberish)).optional(),
  rawDataHistogram: z.array(z.array(z.array(ZBucket))).optional(),
});

// Profilers may add entries without per-fork numbers; those are skipped rather than rejected.
const ZSecondaryMetric = z.object({ scoreUnit: z.string(), rawData: z.array(z.array(ZNumberish)).optional() });

const ZResult = z.object({
  jmhVersion: z.string().optional(),
  benchmark: z.string().min(1),
  mode: z.enum(["thrpt", "avgt", "sample", "ss"]),
  threads: z.number().int().positive().optional(),
  forks: z.number().int().nonnegative().optional(),
  jvm: z.string().optional(),
  jvmArgs: z.array(z.string()).optional(),
  jdkVersion: z.string().optional(),
  vmName: z.string().optional(),
  vmVersion: z.string().optional(),
  warmupIterations: z.number().int().nonnegative().optional(),
  warmupTime: z.string().optional(),
  warmupBatchSize: z.number().int().nonnegative().optional(),
  measurementIterations: z.number().int().nonnegative().optional(),
  measurementTime: z.string().optional(),
  measurementBatchSize: z.number().int().nonnegative().optional(),
  params: z.record(z.string(), z.string()).optional(),
  primaryMetric: ZPrimaryMetric,
  secondaryMetrics: z.record(z.string(), ZSecondaryMetric).optional(),
});
type JmhResult = z.infer<typeof ZResult>;

// JMH's own long names for the modes (Mode.longLabel without the unit).
const MODE_LABELS = { thrpt: "Throughput", avgt: "Average time", sample: "Sampling time", ss: "Single shot invocation time" } as const;
const TIME_UNITS = new Set(["ns", "us", "ms", "s", "min", "hr", "day"]);
const SAMPLE_PERCENTILE_KEY = /^p\d(\.\d+)?$/;

export const importJmh: Importer = (body) => {
  const json = parseJsonBody(FORMAT, body);
  const parsed = z.array(ZResult).safeParse(json);
  if (!parsed.success) {
    throw new ImportFormatError(FORMAT, `expected ${EXPECTED}${foreignHint(body)}: ${describeIssues(parsed.error)}`);
  }
  const results = parsed.data;
  const first = results[0];
  if (!first) throw new ImportFormatError(FORMAT, "the JSON array holds no benchmark results");

  const benchmarks = results.map((result, index) => toBenchmark(result, index));
  markModeWhereNamesCollide(results, benchmarks);
  return {
    format: FORMAT,
    benchmarks,
    environment: defined({ jmhVersion: first.jmhVersion, jdkVersion: first.jdkVersion, vmName: first.vmName, vmVersion: first.vmVersion, jvm: first.jvm }),
  };
};

function toBenchmark(result: JmhResult, index: number): ImportedBenchmark {
  const where = `result ${index} (${result.benchmark})`;
  const primary = result.primaryMetric;
  const perFork = primary.rawDataHistogram
    ? primary.rawDataHistogram.map((iterations) => ({ summary: histogramSummary(iterations.flat(), where) }))
    : primary.rawData?.map((scores) => ({ samples: finiteScores(scores, `${where} primaryMetric.rawData`) }));
  if (!perFork || perFork.length === 0) {
    throw new ImportFormatError(FORMAT, `${where} has no per-fork data (primaryMetric.rawData or rawDataHistogram)`);
  }

  const repetitions = perFork.map((data, fork): ImportedRepetition => {
    const score: ImportedMetric = {
      key: "score",
      unit: normaliseUnit(primary.scoreUnit),
      direction: result.mode === "thrpt" ? "higher_is_better" : "lower_is_better",
      label: MODE_LABELS[result.mode],
      ...data,
    };
    return { metrics: [score, ...secondaryMetrics(result, fork, primary.rawDataHistogram !== undefined)], environment: runEnvironment(result, fork) };
  });
  return { name: result.benchmark, params: result.params && Object.keys(result.params).length > 0 ? { ...result.params } : undefined, repetitions };
}

function secondaryMetrics(result: JmhResult, fork: number, sampled: boolean): ImportedMetric[] {
  const metrics: ImportedMetric[] = [];
  for (const [rawKey, metric] of Object.entries(result.secondaryMetrics ?? {})) {
    const key = rawKey.replace(/^·/, "");
    if (sampled && SAMPLE_PERCENTILE_KEY.test(key)) continue;
    const scores = metric.rawData?.[fork];
    // A profiler that reports no number for this fork (or NaN) simply has no metric here.
    if (!scores || scores.length === 0 || !scores.every((v) => typeof v === "number")) continue;
    metrics.push({ key, unit: normaliseUnit(metric.scoreUnit), direction: secondaryDirection(key, metric.scoreUnit), samples: scores as number[] });
  }
  return metrics;
}

/** Rates (ops/s, MB/sec) are better higher, except GC figures: allocating or collecting less is better. */
function secondaryDirection(key: string, unit: string): Direction {
  if (key.startsWith("gc.")) return "lower_is_better";
  return /\/(ns|us|ms|s|sec|min|hr|day)$/.test(unit) ? "higher_is_better" : "lower_is_better";
}

function normaliseUnit(unit: string): string {
  const perOp = /^(.+)\/op$/.exec(unit);
  if (perOp?.[1] && TIME_UNITS.has(perOp[1])) return perOp[1];
  if (unit === "B/op") return "B";
  if (unit === "MB/sec") return "MB/s";
  if (unit === "counts") return "count";
  return unit;
}

function finiteScores(scores: (number | string)[], where: string): number[] {
  if (scores.length === 0) throw new ImportFormatError(FORMAT, `${where} has a fork without iteration scores`);
  return scores.map((value, i) => {
    if (typeof value !== "number") throw new ImportFormatError(FORMAT, `${where}[${i}] is ${JSON.stringify(value)}, not a finite number`);
    if (value < 0) throw new ImportFormatError(FORMAT, `${where}[${i}] is negative (${value})`);
    return value;
  });
}

/** Summary of one fork's sample-mode histogram: exact n, mean, sd; nearest-rank percentiles. */
function histogramSummary(buckets: [number, number][], where: string): ImportedSummary {
  const counts = new Map<number, number>();
  for (const [value, count] of buckets) counts.set(value, (counts.get(value) ?? 0) + count);
  const sorted = [...counts.entries()].filter(([, count]) => count > 0).sort((a, b) => a[0] - b[0]);
  const n = sorted.reduce((total, [, count]) => total + count, 0);
  if (n === 0) throw new ImportFormatError(FORMAT, `${where} has an empty rawDataHistogram for a fork`);
  const mean = sorted.reduce((total, [value, count]) => total + value * count, 0) / n;
  const squares = sorted.reduce((total, [value, count]) => total + count * (value - mean) ** 2, 0);
  const percentile = (p: number) => {
    const rank = Math.max(1, Math.ceil(p * n));
    let seen = 0;
    for (const [value, count] of sorted) {
      seen += count;
      if (seen >= rank) return value;
    }
    return sorted[sorted.length - 1]![0];
  };
  return {
    n,
    mean,
    sd: n > 1 ? Math.sqrt(squares / (n - 1)) : undefined,
    min: sorted[0]![0],
    max: sorted[sorted.length - 1]![0],
    p50: percentile(0.5),
    p90: percentile(0.9),
    p95: percentile(0.95),
    p99: percentile(0.99),
    p999: percentile(0.999),
  };
}

function runEnvironment(result: JmhResult, fork: number): Record<string, unknown> {
  return defined({
    fork: fork + 1,
    mode: result.mode,
    threads: result.threads,
    forks: result.forks,
    jvmArgs: result.jvmArgs,
    warmupIterations: result.warmupIterations,
    warmupTime: result.warmupTime,
    warmupBatchSize: result.warmupBatchSize,
    measurementIterations: result.measurementIterations,
    measurementTime: result.measurementTime,
    measurementBatchSize: result.measurementBatchSize,
  });
}

/**
 * One benchmark method run in two modes (@BenchmarkMode({thrpt, avgt})) gives two results with the
 * same name and params but different units; a "mode" param keeps them apart.
 */
function markModeWhereNamesCollide(results: JmhResult[], benchmarks: ImportedBenchmark[]) {
  const identities = benchmarks.map((b) => JSON.stringify([b.name, Object.entries(b.params ?? {}).sort()]));
  const seen = new Map<string, number>();
  for (const identity of identities) seen.set(identity, (seen.get(identity) ?? 0) + 1);
  benchmarks.forEach((b, i) => {
    if ((seen.get(identities[i]!) ?? 0) > 1) b.params = { ...b.params, mode: results[i]!.mode };
  });
}

function defined(record: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined));
}
