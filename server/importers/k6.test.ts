import { describe, expect, it } from "vitest";
import { foreignFixtures, readFixture } from "./fixture-files";
import { importK6 } from "./k6";
import { metricOf as metric, refusalOf, uploadProblems } from "./result-checks";
import { ImportFormatError } from "./types";

const refusal = (body: string) => refusalOf(importK6, body);

const CSV_HEADER =
  "metric_name,timestamp,metric_value,check,error,error_code,expected_response,group,method,name,proto,scenario,service,status,subproto,tls_version,url,extra_tags,metadata";
const csvRow = (metricName: string, timestamp: string, value: string, scenario = "default") =>
  `${metricName},${timestamp},${value},,,,true,,GET,http://127.0.0.1/,HTTP/1.1,${scenario},,200,,,http://127.0.0.1/,,`;

describe("importK6 on k6's --summary-export", () => {
  const result = importK6(readFixture("k6/summary.json"));

  it("gives one benchmark with one repetition of summaries", () => {
    expect(result.format).toBe("k6");
    expect(result.benchmarks.map((b) => b.name)).toEqual(["k6"]);
    expect(result.benchmarks[0]?.repetitions).toHaveLength(1);
    expect(uploadProblems(result)).toEqual([]);
  });

  it("maps http_req_duration's avg/min/med/max/p(90)/p(95) exactly", () => {
    // summary.json: {"max":36.921117,"p(90)":1.8667770999999986,"p(95)":3.4605582999999966,
    //                "avg":2.02745214,"min":0.222402,"med":0.7558625}, http_reqs.count 150
    expect(metric(result, "http_req_duration")).toMatchObject({ unit: "ms", direction: "lower_is_better" });
    expect(metric(result, "http_req_duration").summary).toEqual({
      n: 150,
      mean: 2.02745214,
      min: 0.222402,
      max: 36.921117,
      p50: 0.7558625,
      p90: 1.8667770999999986,
      p95: 3.4605582999999966,
    });
    expect(metric(result, "iteration_duration").summary).toMatchObject({ n: 150, mean: 102.89694690666667, p95: 105.7928414 });
  });

  it("maps the counters, rates and vus_max", () => {
    // A Counter's rate is the run's value (count ÷ the test's duration); the counts go with the run.
    expect(metric(result, "http_reqs")).toEqual({
      key: "http_reqs",
      unit: "req/s",
      direction: "higher_is_better",
      label: "HTTP requests per second (the run's rate)",
      value: 48.49313423924897,
    });
    expect(metric(result, "iterations")).toMatchObject({ unit: "iter/s", value: 48.49313423924897 });
    expect(result.benchmarks[0]?.repetitions[0]?.environment).toEqual({ k6Counts: { http_reqs: 150, iterations: 150 } });
    expect(metric(result, "data_received")).toMatchObject({ unit: "B", summary: { n: 1, mean: 175938, sum: 175938 } });
    expect(metric(result, "data_sent").summary).toEqual({ n: 1, mean: 10650, sum: 10650 });
    expect(metric(result, "checks")).toMatchObject({ unit: "%", direction: "higher_is_better", summary: { n: 150, mean: 98 } });
    expect(metric(result, "http_req_failed")).toMatchObject({ unit: "%", direction: "lower_is_better", summary: { n: 150, mean: 2 } });
    expect(metric(result, "vus_max")).toMatchObject({ value: 5 });
    expect(metric(result, "vus_max").summary).toBeUndefined();
  });

  it("leaves out sub-metrics such as http_req_duration{expected_response:true}", () => {
    const keys = result.benchmarks[0]?.repetitions[0]?.metrics.map((m) => m.key) ?? [];
    expect(keys.some((k) => k.includes("{"))).toBe(false);
  });

  it("honours summaryTimeUnit", () => {
    const body = JSON.stringify({
      root_group: {},
      options: { summaryTimeUnit: "s" },
      metrics: { http_reqs: { count: 2, rate: 1 }, http_req_duration: { avg: 0.5, min: 0.25, med: 0.5, max: 0.75, "p(90)": 0.7, "p(95)": 0.72 } },
    });
    expect(metric(importK6(body), "http_req_duration").summary).toMatchObject({ n: 2, mean: 500, max: 750 });
  });
});

describe("importK6 on k6's --out csv", () => {
  const result = importK6(readFixture("k6/out.csv"));

  it("keeps every request's duration as a sample, agreeing with the same run's summary", () => {
    const duration = metric(result, "http_req_duration");
    expect(duration.samples).toHaveLength(150);
    expect(duration.samples?.[0]).toBe(25.314837);
    // The summary of the same k6 run printed avg 2.02745214 and max 36.921117.
    expect(duration.summary?.mean).toBeCloseTo(2.02745214, 9);
    expect(Math.max(...(duration.samples ?? []))).toBe(36.921117);
    expect(duration.timeSeries?.offsetsMs).toEqual([0, 1000, 2000, 3000]);
  });

  it("counts http_reqs per second as a time series", () => {
    // out.csv has 10, 50, 50 and 40 http_reqs lines at timestamps 1795240233…1795240236.
    expect(metric(result, "http_reqs")).toMatchObject({
      unit: "req/s",
      direction: "higher_is_better",
      timeSeries: { offsetsMs: [0, 1000, 2000, 3000], values: [10, 50, 50, 40] },
      summary: { n: 4, mean: 37.5, max: 50, sum: 150 },
    });
    expect(result.benchmarks[0]?.repetitions[0]?.startedAt).toBe(new Date(1795240233 * 1000).toISOString());
  });

  it("gives the failure and check rates and byte totals", () => {
    expect(metric(result, "http_req_failed").summary).toEqual({ n: 150, mean: 2 });
    expect(metric(result, "checks").summary).toEqual({ n: 150, mean: 98 });
    expect(metric(result, "data_received").summary?.sum).toBe(175938);
    expect(metric(result, "iteration_duration").samples).toHaveLength(150);
    expect(uploadProblems(result)).toEqual([]);
  });

  it("makes one benchmark per scenario", () => {
    const scenarios = importK6(readFixture("k6/out-scenarios.csv"));
    expect(scenarios.benchmarks.map((b) => b.name).sort()).toEqual(["large", "small"]);
    for (const b of scenarios.benchmarks) expect(metric(scenarios, "http_reqs", scenarios.benchmarks.indexOf(b)).summary?.sum).toBe(40);
    expect(uploadProblems(scenarios)).toEqual([]);
  });

  it("reads unix_milli and RFC 3339 timestamps", () => {
    const milli = [CSV_HEADER, csvRow("http_reqs", "1795240233500", "1"), csvRow("http_reqs", "1795240234100", "1")].join("\n");
    expect(metric(importK6(milli), "http_reqs").timeSeries?.values).toEqual([1, 1]);
    const rfc = [CSV_HEADER, csvRow("http_req_duration", "2026-11-21T05:50:33Z", "4.5")].join("\n");
    expect(importK6(rfc).benchmarks[0]?.repetitions[0]?.startedAt).toBe("2026-11-21T05:50:33.000Z");
  });
});

describe("importK6 refuses what is not k6 output", () => {
  it.each([
    ["an empty body", "", /the body is empty/],
    ["malformed JSON", '{"root_group": {}, "metrics": {', /malformed JSON/],
    ["JSON of another shape", '{"benchmarks": []}', /root_group/],
    ["a JSON array", "[1, 2]", /--summary-export/],
    [
      "a trend with a string",
      '{"root_group": {}, "metrics": {"http_reqs": {"count": 1, "rate": 1}, "http_req_duration": {"avg": "fast"}}}',
      /metrics\.http_req_duration is not a k6 Trend/,
    ],
    ["an infinite figure", '{"root_group": {}, "metrics": {"http_reqs": {"count": 1, "rate": 1e999}}}', /metrics\.http_reqs\.rate: .*not a finite number/],
    ["a negative count", '{"root_group": {}, "metrics": {"http_reqs": {"count": -3, "rate": 1}}}', /cannot be negative/],
    ["a summary without built-in metrics", '{"root_group": {}, "metrics": {"my_trend": {"avg": 1}}}', /none of k6's built-in metrics/],
    ["a CSV with another header", "name,value\nx,1\n", /expected k6 --summary-export JSON or k6 --out csv/],
    ["a non-numeric CSV value", [CSV_HEADER, csvRow("http_req_duration", "1795240233", "slow")].join("\n"), /non-numeric value "slow" at line 2/],
    ["a NaN CSV value", [CSV_HEADER, csvRow("http_req_duration", "1795240233", "NaN")].join("\n"), /NaN is not a finite number/],
    ["an infinite CSV value", [CSV_HEADER, csvRow("http_req_duration", "1795240233", "+Inf")].join("\n"), /\+Inf is not a finite number/],
    ["a negative request count", [CSV_HEADER, csvRow("http_reqs", "1795240233", "-1")].join("\n"), /negative request count/],
    ["a bad timestamp", [CSV_HEADER, csvRow("http_reqs", "yesterday", "1")].join("\n"), /timestamp "yesterday" at line 2/],
    ["a ragged CSV row", `${CSV_HEADER}\nhttp_reqs,1795240233,1\n`, /unreadable CSV/],
    ["a header only", `${CSV_HEADER}\n`, /no samples/],
  ])("%s", (_what, body, message) => {
    expect(refusal(body)).toMatch(message);
  });

  it("says which tool's output it was given", () => {
    expect(refusal(readFixture("wrk/wrk-latency.txt"))).toMatch(/this looks like wrk/);
    expect(refusal(readFixture("ngrinder/output.csv"))).toMatch(/nGrinder CSV/);
  });

  const foreign = foreignFixtures("k6");
  it.each(foreign.map((f) => [f.relative, f.body] as const))("refuses fixture %s", (_name, body) => {
    expect(() => importK6(body)).toThrow(ImportFormatError);
  });
});
