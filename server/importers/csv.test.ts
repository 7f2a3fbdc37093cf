import { describe, expect, it } from "vitest";
import { importCsv } from "./csv";
import { parseMetricHeader } from "./csv-header";
import { foreignFixtures, readFixture } from "./fixture-files";
import { refusalOf, uploadProblems } from "./result-checks";
import { ImportFormatError } from "./types";

const refusal = (body: string) => refusalOf(importCsv, body);

describe("parseMetricHeader", () => {
  it.each([
    ["time [ms]", { key: "time", unit: "ms", direction: "lower_is_better" }],
    ["throughput (ops/s)", { key: "throughput", unit: "ops/s", direction: "higher_is_better" }],
    ["heap_used (MB):lower", { key: "heap_used", unit: "MB", direction: "lower_is_better" }],
    ["score:higher", { key: "score", unit: "count", direction: "higher_is_better" }],
    ["time (ms) ↓", { key: "time", unit: "ms", direction: "lower_is_better" }],
    ["hit rate [%] ↑", { key: "hit rate", unit: "%", direction: "higher_is_better" }],
    ["rps [req/s]:LOWER", { key: "rps", unit: "req/s", direction: "lower_is_better" }],
    ["errors", { key: "errors", unit: "count", direction: "lower_is_better" }],
  ])("%s", (cell, expected) => {
    expect(parseMetricHeader(cell)).toMatchObject(expected);
  });
});

describe("importCsv on measure.mjs's CSV files", () => {
  it("groups rows by the variant column, one repetition per row", () => {
    const result = importCsv(readFixture("csv/grouped.csv"));
    expect(result.format).toBe("csv");
    expect(result.benchmarks.map((b) => [b.name, b.repetitions.length])).toEqual([
      ["json", 5],
      ["structuredClone", 5],
    ]);
    const first = result.benchmarks[0]?.repetitions[0];
    // grouped.csv line 2: json,1,2026-11-21T05:51:58.840Z,254.288,786.510,4.332
    expect(first?.startedAt).toBe("2026-11-21T05:51:58.840Z");
    expect(first?.metrics).toEqual([
      { key: "time", unit: "ms", direction: "lower_is_better", label: "time [ms]", summary: { n: 1, mean: 254.288 } },
      { key: "throughput", unit: "ops/s", direction: "higher_is_better", label: "throughput [ops/s]", summary: { n: 1, mean: 786.51 } },
      { key: "heap_used", unit: "MB", direction: "lower_is_better", label: "heap_used (MB):lower", summary: { n: 1, mean: 4.332 } },
    ]);
    // grouped.csv's last line: structuredClone,5,…,334.763,597.438,12.828
    expect(result.benchmarks[1]?.repetitions[4]?.metrics[0]?.summary?.mean).toBe(334.763);
    expect(uploadProblems(result)).toEqual([]);
  });

  it("treats every row as a repetition of one benchmark without a grouping column", () => {
    const result = importCsv(readFixture("csv/plain.csv"));
    expect(result.benchmarks.map((b) => [b.name, b.repetitions.length])).toEqual([["default", 6]]);
    const metrics = result.benchmarks[0]?.repetitions[0]?.metrics ?? [];
    expect(metrics.map((m) => [m.key, m.unit, m.direction, m.summary?.mean])).toEqual([
      ["time", "ms", "lower_is_better", 323.795],
      ["throughput", "ops/s", "higher_is_better", 617.675],
      ["heap_used", "MB", "lower_is_better", 7.35],
    ]);
    expect(uploadProblems(result)).toEqual([]);
  });

  it("orders rows by repetition, reads unix timestamps and skips empty cells", () => {
    const body = ["benchmark,repetition,timestamp,latency [ms],errors", "a,2,1795240800,12,", "a,1,1795240799000,10,0", "b,1,,7,1"].join("\n");
    const result = importCsv(body);
    const a = result.benchmarks[0];
    expect(a?.repetitions.map((r) => r.metrics.map((m) => m.summary?.mean))).toEqual([[10, 0], [12]]);
    expect(a?.repetitions.map((r) => r.startedAt)).toEqual(["2026-11-21T05:59:59.000Z", "2026-11-21T06:00:00.000Z"]);
    expect(result.benchmarks[1]?.repetitions[0]?.startedAt).toBeUndefined();
  });

  it("allows negative values for units that can be negative", () => {
    const result = importCsv("delta [%],change\n-3.5,-2\n");
    expect(result.benchmarks[0]?.repetitions[0]?.metrics.map((m) => m.summary?.mean)).toEqual([-3.5, -2]);
  });
});

describe("importCsv refuses what is not a results CSV", () => {
  it.each([
    ["an empty body", "", /the body is empty/],
    ["JSON", '{"time": 1}', /expected a CSV with a header row/],
    ["a header only", "time [ms]\n", /a header but no rows/],
    ["no metric column", "variant,repetition\na,1\n", /no metric column/],
    ["an empty header cell", "time,,x\n1,2,3\n", /header column 2 is empty/],
    ["a duplicate metric", "time [ms],time (s)\n1,2\n", /"time" appears in two columns/],
    ["two grouping columns", "variant,benchmark,t\na,b,1\n", /more than one variant\/benchmark column/],
    ["a non-numeric cell", "time [ms]\nfast\n", /non-numeric value "fast" at line 2, column "time \[ms\]"/],
    ["NaN", "time [ms]\nNaN\n", /NaN is not a finite number/],
    ["Infinity", "time [ms]\n-Infinity\n", /-Infinity is not a finite number/],
    ["a negative count", "errors [count]\n-1\n", /negative errors \(count\)/],
    ["a negative time", "time [ms]\n-0.5\n", /negative time \(ms\)/],
    ["a row without values", "variant,time [ms]\na,\n", /line 2 has no metric values/],
    ["an empty variant", "variant,time [ms]\n,3\n", /empty variant\/benchmark name at line 2/],
    ["a fractional repetition", "repetition,time [ms]\n1.5,3\n", /repetition 1.5 at line 2 is not a whole number/],
    ["a timestamp without a zone", "timestamp,time [ms]\n2026-11-21 06:00:00,3\n", /not ISO 8601 with a time zone/],
    ["a ragged row", "a,b\n1,2,3\n", /unreadable CSV/],
  ])("%s", (_what, body, message) => {
    expect(refusal(body)).toMatch(message);
  });

  it("names the tool when given another tool's CSV or printout", () => {
    expect(refusal(readFixture("k6/out.csv"))).toMatch(/k6 CSV .*use that tool's importer/);
    expect(refusal(readFixture("ngrinder/output.csv"))).toMatch(/nGrinder CSV report/);
    expect(refusal(readFixture("wrk/wrk-latency.txt"))).toMatch(/wrk/);
  });

  const foreign = foreignFixtures("csv");
  it.each(foreign.map((f) => [f.relative, f.body] as const))("refuses fixture %s", (_name, body) => {
    expect(() => importCsv(body)).toThrow(ImportFormatError);
  });
});
