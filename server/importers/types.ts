// What every tool importer produces from a tool's raw output, before it is mapped onto an
// experiment's variants and metrics. Importers are pure functions: text in, this out.

export type Direction = "lower_is_better" | "higher_is_better";

/** Summary figures a tool printed, when it did not give (all) raw samples. */
export interface ImportedSummary {
  n: number;
  mean: number;
  sd?: number;
  min?: number;
  max?: number;
  p50?: number;
  p90?: number;
  p95?: number;
  p99?: number;
  p999?: number;
  sum?: number;
}

export interface ImportedMetric {
  /** Metric key, e.g. "time", "B/op", "allocs/op", "http_req_duration", "requests_per_sec". */
  key: string;
  /** Unit as the tool printed it, normalised: "ns", "ms", "s", "B", "ops/s", "req/s", "MB/s", "%", "count". */
  unit: string;
  direction: Direction;
  label?: string;
  /** Raw per-operation (or per-iteration) values, when the tool gave them. */
  samples?: number[];
  /** The tool's own summary of the values it describes (samples win when both are given). */
  summary?: ImportedSummary;
  /**
   * What the run contributes to comparisons when it is not a figure of the summary: a rate the
   * tool printed for the whole run (k6's http_reqs rate, wrk's Requests/sec), a regression slope.
   */
  value?: number;
  /** A value over time within the run, e.g. TPS per second: offsets in ms from the run start. */
  timeSeries?: { offsetsMs: number[]; values: number[] };
}

/** One execution (a repetition, fork, `-count` round) of one benchmark: becomes one Run. */
export interface ImportedRepetition {
  metrics: ImportedMetric[];
  startedAt?: string;
  environment?: Record<string, unknown>;
}

export interface ImportedBenchmark {
  /** Name as the tool prints it, e.g. "BenchmarkGzip/size=1KB-8", "com.acme.MyBench.encode". */
  name: string;
  /** Benchmark parameters, e.g. {"size": "1KB"} from JMH params or sub-benchmark names. */
  params?: Record<string, string>;
  repetitions: ImportedRepetition[];
}

export interface ImportResult {
  /** The format name, e.g. "jmh". */
  format: string;
  benchmarks: ImportedBenchmark[];
  /** Environment the tool reported for the whole file (JVM version, goos/goarch, CPU, …). */
  environment?: Record<string, unknown>;
}

/**
 * Thrown when the body is not this tool's output (another tool's file, truncated text, wrong
 * encoding). The message says what was expected and what was found, for a 422/400 answer.
 */
export class ImportFormatError extends Error {
  constructor(
    readonly format: string,
    message: string,
  ) {
    super(`Not valid ${format} output: ${message}`);
    this.name = "ImportFormatError";
  }
}

export type Importer = (body: string) => ImportResult;
