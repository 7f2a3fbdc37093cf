// k6's end-of-test summary as written by `k6 run --summary-export summary.json`:
//   { "root_group": {…}, "metrics": { "<name>": { …figures… }, … }, "options"?: {…} }
// Each metric's figures depend on its type: a Trend has avg/min/med/max/p(90)/p(95) (or the
// stats chosen with --summary-trend-stats), a Counter count/rate, a Rate passes/fails/value and a
// Gauge value/min/max. A Counter's rate and a Gauge's value are the run's value (a figure of the
// whole run, not a summary of values). The file does not say a metric's type or unit, so only k6's built-in
// metrics are imported (their types and units are known); custom metrics and sub-metrics such as
// "http_req_duration{expected_response:true}" are left out.
import { z } from "zod";
import { describeIssues } from "./body-checks";
import { countIssue } from "./numeric-cells";
import type { ImportedMetric, ImportedSummary, ImportResult } from "./types";
import { ImportFormatError } from "./types";

const FORMAT = "k6";

const figure = z.number({ error: "must be a finite number" });
const nonNegative = figure.min(0, "cannot be negative");
const wholeCount = nonNegative.int({ error: countIssue });

// .loose(): a metric with thresholds also has "thresholds": {"p(95)<500": true}.
const ZTrend = z.looseObject({
  avg: nonNegative,
  min: nonNegative.optional(),
  med: nonNegative.optional(),
  max: nonNegative.optional(),
  "p(90)": nonNegative.optional(),
  "p(95)": nonNegative.optional(),
  "p(99)": nonNegative.optional(),
  "p(99.9)": nonNegative.optional(),
  count: wholeCount.optional(), // present when --summary-trend-stats includes "count"
});
const ZCounter = z.looseObject({ count: wholeCount, rate: nonNegative });
const ZRate = z.looseObject({ passes: wholeCount, fails: wholeCount, value: nonNegative.max(1, "a rate is at most 1") });
const ZGauge = z.looseObject({ value: figure, min: figure, max: figure });

export const ZK6Summary = z.looseObject({
  root_group: z.looseObject({}),
  metrics: z.record(z.string(), z.looseObject({})),
  options: z.looseObject({ summaryTimeUnit: z.string().nullish() }).optional(),
});

/** Built-in k6 Trends; each value is a duration. `per` names the Counter whose count is n. */
const TIME_TRENDS: Record<string, { per: string; label: string }> = {
  http_req_duration: { per: "http_reqs", label: "HTTP request duration" },
  http_req_blocked: { per: "http_reqs", label: "HTTP request blocked time" },
  http_req_connecting: { per: "http_reqs", label: "HTTP connecting time" },
  http_req_tls_handshaking: { per: "http_reqs", label: "HTTP TLS handshaking time" },
  http_req_sending: { per: "http_reqs", label: "HTTP request sending time" },
  http_req_waiting: { per: "http_reqs", label: "HTTP waiting time (TTFB)" },
  http_req_receiving: { per: "http_reqs", label: "HTTP response receiving time" },
  iteration_duration: { per: "iterations", label: "Iteration duration" },
};

/** Trend values are in ms unless the test set summaryTimeUnit. */
const TO_MS: Record<string, number> = { ns: 1e-6, us: 1e-3, µs: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

function figures<T extends z.ZodType>(schema: T, name: string, raw: unknown, kind: string): z.output<T> {
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw new ImportFormatError(FORMAT, `metrics.${name} is not a k6 ${kind}: ${describeIssues(parsed.error)}`);
  return parsed.data;
}

function trendMetric(name: string, raw: unknown, perCount: number, toMs: number): ImportedMetric | undefined {
  const trend = figures(ZTrend, name, raw, "Trend (avg, min, med, max, p(90), p(95))");
  const n = trend.count ?? perCount;
  if (n < 1) return undefined; // no requests/iterations: the figures describe nothing
  const ms = (v: number | undefined) => (v === undefined ? undefined : v * toMs);
  const summary: ImportedSummary = { n, mean: trend.avg * toMs };
  const fields = {
    min: ms(trend.min),
    max: ms(trend.max),
    p50: ms(trend.med),
    p90: ms(trend["p(90)"]),
    p95: ms(trend["p(95)"]),
    p99: ms(trend["p(99)"]),
    p999: ms(trend["p(99.9)"]),
  };
  for (const [field, value] of Object.entries(fields)) if (value !== undefined) summary[field as keyof typeof fields] = value;
  return { key: name, unit: "ms", direction: "lower_is_better", label: TIME_TRENDS[name]?.label, summary };
}

export function importK6Summary(document: unknown): ImportResult {
  const parsed = ZK6Summary.safeParse(document);
  if (!parsed.success) {
    throw new ImportFormatError(FORMAT, `expected k6's --summary-export JSON ({"root_group": …, "metrics": …}): ${describeIssues(parsed.error)}`);
  }
  const { metrics: all, options } = parsed.data;
  const timeUnit = options?.summaryTimeUnit ?? "ms";
  const toMs = TO_MS[timeUnit];
  if (toMs === undefined) throw new ImportFormatError(FORMAT, `unknown summaryTimeUnit "${timeUnit}"`);

  const counter = (name: string) => (all[name] === undefined ? undefined : figures(ZCounter, name, all[name], "Counter (count, rate)"));
  const rate = (name: string) => (all[name] === undefined ? undefined : figures(ZRate, name, all[name], "Rate (passes, fails, value)"));
  const metrics: ImportedMetric[] = [];

  for (const [name, { per }] of Object.entries(TIME_TRENDS)) {
    if (all[name] === undefined) continue;
    const n = counter(per)?.count ?? 0;
    const metric = trendMetric(name, all[name], Math.round(n), toMs);
    if (metric) metrics.push(metric);
  }
  const throughput: [string, string, string][] = [
    ["http_reqs", "req/s", "HTTP requests per second (the run's rate)"],
    ["iterations", "iter/s", "Iterations per second (the run's rate)"],
  ];
  // A Counter's rate is count ÷ the test's duration: the run's value, of no set of values a
  // summary could describe. Its count goes with the run's environment.
  const counts: Record<string, number> = {};
  for (const [name, unit, label] of throughput) {
    const c = counter(name);
    if (!c) continue;
    metrics.push({ key: name, unit, direction: "higher_is_better", label, value: c.rate });
    counts[name] = c.count;
  }
  // Bytes moved in a fixed-duration test: more means more work done, hence higher is better.
  for (const [name, label] of [
    ["data_received", "Data received"],
    ["data_sent", "Data sent"],
  ] as const) {
    const c = counter(name);
    if (c)
      metrics.push({ key: name, unit: "B", direction: "higher_is_better", label: `${label} (total bytes)`, summary: { n: 1, mean: c.count, sum: c.count } });
  }
  for (const [name, direction, label] of [
    ["checks", "higher_is_better", "Checks passed"],
    ["http_req_failed", "lower_is_better", "Failed HTTP requests"],
  ] as const) {
    const r = rate(name);
    if (r && r.passes + r.fails > 0) metrics.push({ key: name, unit: "%", direction, label, summary: { n: r.passes + r.fails, mean: r.value * 100 } });
  }
  if (all.vus_max !== undefined) {
    const g = figures(ZGauge, "vus_max", all.vus_max, "Gauge (value, min, max)");
    // The load level the test allowed, not a result: recorded so runs can be told apart.
    metrics.push({ key: "vus_max", unit: "count", direction: "higher_is_better", label: "Max virtual users (load level)", value: g.value });
  }
  if (metrics.length === 0) {
    throw new ImportFormatError(FORMAT, "the summary has none of k6's built-in metrics (http_req_duration, http_reqs, iterations, …)");
  }
  return {
    format: FORMAT,
    benchmarks: [{ name: "k6", repetitions: [{ metrics, ...(Object.keys(counts).length > 0 ? { environment: { k6Counts: counts } } : {}) }] }],
  };
}
