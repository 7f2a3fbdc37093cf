// k6's per-sample CSV as written by `k6 run --out csv=out.csv`:
//   metric_name,timestamp,metric_value,check,error,…,scenario,…
//   http_reqs,1795240223,1.000000,…,default,…
//   http_req_duration,1795240223,3.465849,…,default,…
// One line per metric sample; timestamps are unix seconds by default (k6's timeFormat option can
// make them unix_milli/micro/nano or RFC 3339; all are accepted).
//
// One benchmark per value of the "scenario" column (named "k6" when there is only one scenario),
// each with one repetition starting at its first sample:
//   http_req_duration   every request's duration as samples (ms), plus its mean per second
//   http_reqs           requests per second as a time series (req/s), summary = mean/peak/total
//   iterations          iterations per second, likewise (iter/s)
//   iteration_duration  every iteration's duration as samples (ms)
//   http_req_failed     % failed requests; checks: % passed checks
//   data_received/data_sent  total bytes
// Other metrics (vus, custom metrics, the http_req_* phases) are left out. The file can have
// millions of lines: records are aggregated one at a time and never kept as rows.
import { forEachCsvRecord } from "./csv-records";
import { mean, parseDecimal, requireNonNegative } from "./numeric-cells";
import type { ImportedBenchmark, ImportedMetric, ImportResult } from "./types";
import { ImportFormatError } from "./types";

const FORMAT = "k6";

/** Everything kept for one scenario while reading. */
interface ScenarioData {
  firstMs: number;
  durations: number[];
  iterationDurations: number[];
  requestsPerSecond: Map<number, number>;
  iterationsPerSecond: Map<number, number>;
  durationPerSecond: Map<number, { sum: number; n: number }>;
  failed: { yes: number; all: number };
  checks: { yes: number; all: number };
  bytes: { received: number; sent: number };
}

function newScenario(ms: number): ScenarioData {
  return {
    firstMs: ms,
    durations: [],
    iterationDurations: [],
    requestsPerSecond: new Map(),
    iterationsPerSecond: new Map(),
    durationPerSecond: new Map(),
    failed: { yes: 0, all: 0 },
    checks: { yes: 0, all: 0 },
    bytes: { received: 0, sent: 0 },
  };
}

/** A k6 timestamp in ms since the epoch, whatever the timeFormat. */
function timestampMs(cell: string, where: string): number {
  if (/^\d+$/.test(cell)) {
    const value = Number(cell);
    // Seconds until the year 5138, then ms, µs and ns: the magnitude tells which.
    if (value < 1e11) return value * 1000;
    if (value < 1e14) return value;
    if (value < 1e17) return value / 1e3;
    return value / 1e6;
  }
  const parsed = Date.parse(cell);
  if (/^\d{4}-\d\d-\d\dT/.test(cell) && Number.isFinite(parsed)) return parsed;
  throw new ImportFormatError(FORMAT, `timestamp "${cell}" at ${where} is neither unix time nor RFC 3339`);
}

function bump(map: Map<number, number>, second: number, by: number): void {
  map.set(second, (map.get(second) ?? 0) + by);
}

/** Seconds from the scenario's first second to its last, with 0 for seconds without samples. */
function perSecondSeries(map: Map<number, number>, firstSecond: number, lastSecond: number): { offsetsMs: number[]; values: number[] } {
  const offsetsMs: number[] = [];
  const values: number[] = [];
  for (let s = firstSecond; s <= lastSecond; s++) {
    offsetsMs.push((s - firstSecond) * 1000);
    values.push(map.get(s) ?? 0);
  }
  return { offsetsMs, values };
}

function rateMetric(per: Map<number, number>, firstSecond: number, lastSecond: number, key: string, unit: string, label: string): ImportedMetric {
  const series = perSecondSeries(per, firstSecond, lastSecond);
  let total = 0;
  let peak = 0;
  for (const v of series.values) {
    total += v;
    peak = Math.max(peak, v);
  }
  // The first and last seconds are partial, so the mean per second is a little low.
  return {
    key,
    unit,
    direction: "higher_is_better",
    label,
    timeSeries: series,
    summary: { n: series.values.length, mean: total / series.values.length, max: peak, sum: total },
  };
}

function durationMetric(key: string, label: string, samples: number[]): ImportedMetric {
  return { key, unit: "ms", direction: "lower_is_better", label, samples, summary: { n: samples.length, mean: mean(samples) } };
}

function toBenchmark(name: string, data: ScenarioData): ImportedBenchmark {
  const seconds = [...data.requestsPerSecond.keys(), ...data.iterationsPerSecond.keys(), ...data.durationPerSecond.keys()];
  const firstSecond = Math.floor(data.firstMs / 1000);
  const lastSecond = seconds.reduce((a, b) => Math.max(a, b), firstSecond);
  const metrics: ImportedMetric[] = [];
  if (data.durations.length > 0) {
    const metric = durationMetric("http_req_duration", "HTTP request duration", data.durations);
    const offsetsMs: number[] = [];
    const values: number[] = [];
    for (let s = firstSecond; s <= lastSecond; s++) {
      const bucket = data.durationPerSecond.get(s);
      if (!bucket) continue; // no request finished in that second: no mean to give
      offsetsMs.push((s - firstSecond) * 1000);
      values.push(bucket.sum / bucket.n);
    }
    metric.timeSeries = { offsetsMs, values };
    metrics.push(metric);
  }
  if (data.requestsPerSecond.size > 0)
    metrics.push(rateMetric(data.requestsPerSecond, firstSecond, lastSecond, "http_reqs", "req/s", "HTTP requests per second"));
  if (data.iterationsPerSecond.size > 0)
    metrics.push(rateMetric(data.iterationsPerSecond, firstSecond, lastSecond, "iterations", "iter/s", "Iterations per second"));
  if (data.iterationDurations.length > 0) metrics.push(durationMetric("iteration_duration", "Iteration duration", data.iterationDurations));
  if (data.failed.all > 0)
    metrics.push({
      key: "http_req_failed",
      unit: "%",
      direction: "lower_is_better",
      label: "Failed HTTP requests",
      summary: { n: data.failed.all, mean: (100 * data.failed.yes) / data.failed.all },
    });
  if (data.checks.all > 0)
    metrics.push({
      key: "checks",
      unit: "%",
      direction: "higher_is_better",
      label: "Checks passed",
      summary: { n: data.checks.all, mean: (100 * data.checks.yes) / data.checks.all },
    });
  for (const [key, total, label] of [
    ["data_received", data.bytes.received, "Data received"],
    ["data_sent", data.bytes.sent, "Data sent"],
  ] as const) {
    if (total > 0) metrics.push({ key, unit: "B", direction: "higher_is_better", label: `${label} (total bytes)`, summary: { n: 1, mean: total, sum: total } });
  }
  return { name, repetitions: [{ metrics, startedAt: new Date(data.firstMs).toISOString() }] };
}

export function importK6Csv(body: string): ImportResult {
  const scenarios = new Map<string, ScenarioData>();
  let column: { name: number; time: number; value: number; scenario: number } | undefined;

  forEachCsvRecord(FORMAT, body, (cells, line) => {
    if (!column) {
      const index = (name: string) => cells.indexOf(name);
      column = { name: index("metric_name"), time: index("timestamp"), value: index("metric_value"), scenario: index("scenario") };
      if (column.name !== 0 || column.time < 0 || column.value < 0) {
        throw new ImportFormatError(FORMAT, `expected k6's CSV header "metric_name,timestamp,metric_value,…" but found "${cells.slice(0, 4).join(",")}…"`);
      }
      return;
    }
    const where = `line ${line}`;
    const metric = cells[column.name] ?? "";
    const ms = timestampMs(cells[column.time] ?? "", where);
    const value = parseDecimal(FORMAT, cells[column.value] ?? "", `${where} (${metric})`);
    const key = column.scenario < 0 ? "" : (cells[column.scenario] ?? "");
    let data = scenarios.get(key);
    if (!data) scenarios.set(key, (data = newScenario(ms)));
    data.firstMs = Math.min(data.firstMs, ms);
    const second = Math.floor(ms / 1000);
    switch (metric) {
      case "http_req_duration": {
        const d = requireNonNegative(FORMAT, value, "duration", where);
        data.durations.push(d);
        const bucket = data.durationPerSecond.get(second) ?? { sum: 0, n: 0 };
        bucket.sum += d;
        bucket.n += 1;
        data.durationPerSecond.set(second, bucket);
        break;
      }
      case "iteration_duration":
        data.iterationDurations.push(requireNonNegative(FORMAT, value, "duration", where));
        break;
      case "http_reqs":
        bump(data.requestsPerSecond, second, requireNonNegative(FORMAT, value, "request count", where));
        break;
      case "iterations":
        bump(data.iterationsPerSecond, second, requireNonNegative(FORMAT, value, "iteration count", where));
        break;
      case "http_req_failed":
      case "checks": {
        const tally = metric === "checks" ? data.checks : data.failed;
        if (value !== 0 && value !== 1) throw new ImportFormatError(FORMAT, `${metric} value ${value} at ${where} is not 0 or 1`);
        tally.yes += value;
        tally.all += 1;
        break;
      }
      case "data_received":
        data.bytes.received += requireNonNegative(FORMAT, value, "byte count", where);
        break;
      case "data_sent":
        data.bytes.sent += requireNonNegative(FORMAT, value, "byte count", where);
        break;
    }
  });
  if (!column) throw new ImportFormatError(FORMAT, "the CSV has no header");
  // A scenario that produced only ignored metrics (e.g. vus, which has no scenario tag) is dropped.
  const benchmarks = [...scenarios.entries()]
    .map(([scenario, data]) => ({ scenario, benchmark: toBenchmark(scenario, data) }))
    .filter(({ benchmark }) => (benchmark.repetitions[0]?.metrics.length ?? 0) > 0);
  if (benchmarks.length === 0)
    throw new ImportFormatError(FORMAT, "the CSV has no samples of http_req_duration, http_reqs, iterations or the other built-in metrics");
  if (benchmarks.length === 1 && benchmarks[0]) return { format: FORMAT, benchmarks: [{ ...benchmarks[0].benchmark, name: "k6" }] };
  return { format: FORMAT, benchmarks: benchmarks.map(({ scenario, benchmark }) => ({ ...benchmark, name: scenario || "k6 (no scenario)" })) };
}
