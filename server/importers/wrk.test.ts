import { describe, expect, it } from "vitest";
import { foreignFixtures, readFixture } from "./fixture-files";
import { metricOf as metric, refusalOf, uploadProblems } from "./result-checks";
import { ImportFormatError } from "./types";
import { importWrk } from "./wrk";

const refusal = (body: string) => refusalOf(importWrk, body);

const printout = (overrides: Partial<Record<"latency" | "p99" | "requests" | "rps" | "transfer" | "extra", string>> = {}) =>
  [
    "Running 10s test @ http://127.0.0.1:8080/index.html",
    "  2 threads and 10 connections",
    "  Thread Stats   Avg      Stdev     Max   +/- Stdev",
    `    Latency   ${overrides.latency ?? "635.91us    0.89ms  12.92ms   93.69%"}`,
    "    Req/Sec    56.20k     8.07k   62.00k    86.54%",
    "  Latency Distribution",
    "     50%  250.00us",
    "     75%  491.00us",
    "     90%    0.90ms",
    `     99%   ${overrides.p99 ?? "5.18ms"}`,
    `  ${overrides.requests ?? "1124864"} requests in 10.10s, 1.20GB read`,
    ...(overrides.extra ? [overrides.extra] : []),
    `Requests/sec: ${overrides.rps ?? "111373.29"}`,
    `Transfer/sec:    ${overrides.transfer ?? "121.45MB"}`,
    "",
  ].join("\n");

describe("importWrk on wrk's real printouts", () => {
  it("reads wrk-latency.txt exactly as wrk printed it", () => {
    const result = importWrk(readFixture("wrk/wrk-latency.txt"));
    expect(result.format).toBe("wrk");
    expect(result.benchmarks).toHaveLength(1);
    expect(result.benchmarks[0]?.name).toBe("http://127.0.0.1:18481/");
    const latency = metric(result, "latency");
    expect(latency).toMatchObject({ unit: "ms", direction: "lower_is_better" });
    // "Latency 2.27ms 4.20ms 69.45ms", "50% 368.00us", "90% 5.98ms", "99% 16.92ms", "21532 requests"
    expect(latency.summary).toEqual({ n: 21532, mean: 2.27, sd: 4.2, max: 69.45, p50: 0.368, p90: 5.98, p99: 16.92 });
    expect(latency.label).toBe("Latency (wrk; p75 = 3.07 ms)");
    expect(metric(result, "requests_per_sec")).toMatchObject({ unit: "req/s", direction: "higher_is_better", value: 10659.9 });
    expect(metric(result, "requests_per_sec").summary).toBeUndefined();
    // "Transfer/sec: 11.92MB": wrk's MB is 1024².
    expect(metric(result, "transfer_per_sec").value).toBeCloseTo(11.92 * 1024 * 1024, 6);
    expect(metric(result, "transfer_per_sec").unit).toBe("B/s");
    expect(metric(result, "errors")).toMatchObject({ unit: "count", direction: "lower_is_better", summary: { n: 1, mean: 430, sum: 430 } });
    const environment = result.benchmarks[0]?.repetitions[0]?.environment;
    expect(environment).toMatchObject({ threads: 2, connections: 10, requests: 21532, runtimeMs: 2020, duration: "2s" });
    expect(environment?.bytesRead).toBeCloseTo(24.09 * 1024 * 1024, 6);
    expect(uploadProblems(result)).toEqual([]);
  });

  it("adds the socket errors of wrk-errors.txt to the non-2xx responses", () => {
    const result = importWrk(readFixture("wrk/wrk-errors.txt"));
    // "Socket errors: connect 0, read 34, write 19296, timeout 0" + "Non-2xx or 3xx responses: 105"
    expect(metric(result, "errors").summary).toEqual({ n: 1, mean: 19435, sum: 19435 });
    expect(metric(result, "errors").label).toBe("Errors (socket: connect 0, read 34, write 19296, timeout 0; non-2xx/3xx: 105)");
    expect(metric(result, "requests_per_sec").value).toBe(2587.26);
    expect(metric(result, "latency").summary?.p99).toBe(41.11);
    expect(uploadProblems(result)).toEqual([]);
  });

  it("turns printouts one after another into repetitions of the same URL", () => {
    const body = readFixture("wrk/wrk-latency.txt") + readFixture("wrk/wrk-errors.txt");
    const result = importWrk(body);
    expect(result.benchmarks).toHaveLength(1);
    expect(result.benchmarks[0]?.repetitions.map((r) => r.metrics.find((m) => m.key === "requests_per_sec")?.value)).toEqual([10659.9, 2587.26]);
  });
});

describe("importWrk's units", () => {
  it("converts us/ms/s/m latencies, KB/MB/GB sizes and k/M counts", () => {
    const result = importWrk(printout({ latency: "1.50s    2.00m   1.00h   50.00%", p99: "1.20m", rps: "1.50k", transfer: "512.00KB" }));
    expect(metric(result, "latency").summary).toMatchObject({ mean: 1500, sd: 120_000, max: 3_600_000, p50: 0.25, p90: 0.9, p99: 72_000 });
    expect(metric(result, "requests_per_sec").value).toBe(1500);
    expect(metric(result, "transfer_per_sec").value).toBe(512 * 1024);
    expect(result.benchmarks[0]?.repetitions[0]?.environment?.bytesRead).toBeCloseTo(1.2 * 1024 ** 3, 3);
  });

  it("maps a 99.9% line to p999 and names other percentiles in the label", () => {
    const body = printout().replace("     99%", "     99.9%   7.00ms\n     99%").replace("     75%", "     66.6%  400.00us\n     75%");
    const latency = metric(importWrk(body), "latency");
    expect(latency.summary?.p999).toBe(7);
    expect(latency.label).toBe("Latency (wrk; p66.6 = 0.4 ms, p75 = 0.491 ms)");
  });
});

describe("importWrk refuses what is not wrk output", () => {
  it.each([
    ["an empty body", "", /the body is empty/],
    ["whitespace", "  \n\t\n", /the body is empty/],
    ["JSON", '{"metrics": {}}', /found JSON/],
    ["a printout without Requests/sec", printout().replace(/^Requests\/sec:.*$/m, ""), /"Requests\/sec:"/],
    ["a printout without the Latency row", printout().replace(/^\s*Latency\s+635.*$/m, ""), /Thread Stats "Latency" row/],
    ["a non-numeric latency", printout({ latency: "fast    0.89ms  12.92ms   93.69%" }), /"fast" is not a time/],
    ["a NaN latency", printout({ latency: "-nanus    0.89ms  12.92ms   93.69%" }), /-nan is not a finite number/],
    ["an infinite Requests/sec", printout({ rps: "inf" }), /inf is not a finite number/],
    ["a negative request count", printout({ requests: "-5" }), /negative request count/],
    ["a fractional request count", printout({ requests: "12.5" }), /not a whole number/],
    ["negative socket errors", printout({ extra: "  Socket errors: connect 0, read -3, write 0, timeout 0" }), /negative read error count/],
    ["a bad size unit", printout({ transfer: "12.00XB" }), /not a size with a unit/],
  ])("%s", (_what, body, message) => {
    expect(refusal(body)).toMatch(message);
  });

  it("says which tool's output it was given", () => {
    expect(refusal(readFixture("k6/summary.json"))).toMatch(/k6 summary/);
    expect(refusal(readFixture("k6/out.csv"))).toMatch(/k6 CSV/);
    expect(refusal(readFixture("ngrinder/output.csv"))).toMatch(/nGrinder CSV/);
  });

  const foreign = foreignFixtures("wrk");
  it.each(foreign.map((f) => [f.relative, f.body] as const))("refuses fixture %s", (_name, body) => {
    expect(() => importWrk(body)).toThrow(ImportFormatError);
  });
});
