import { describe, expect, it } from "vitest";
import { foreignFixtures, readFixture } from "./fixture-files";
import { importNgrinder } from "./ngrinder";
import { metricOf as metric, refusalOf, uploadProblems } from "./result-checks";
import { ImportFormatError } from "./types";

const refusal = (body: string) => refusalOf(importNgrinder, body);

// nGrinder 3.x's header for a single test (SingleConsole.writeIntervalCsvData).
const HEADER =
  "DateTime,vuser,Tests,Errors,Mean_Test_Time_(ms),Test_Time_Standard_Deviation_(ms),TPS,Mean_response_length,Response_bytes_per_second,Response_errors,Mean_time_to_resolve_host,Mean_time_to_establish_connection,Mean_time_to_first_byte";
const row = (time: string, tests: string, errors = "0", tps = tests) => `2026-11-21 06:00:${time},10,${tests},${errors},5.5,1.2,${tps},1024,1024,0,0,0.3,4`;

describe("importNgrinder on a report in nGrinder's format", () => {
  const result = importNgrinder(readFixture("ngrinder/output.csv"));

  it("gives the totals as one benchmark with one repetition", () => {
    expect(result.format).toBe("ngrinder");
    expect(result.benchmarks.map((b) => b.name)).toEqual(["ngrinder"]);
    expect(result.environment).toEqual({ firstSample: "2026-11-21 06:00:00", intervals: 30 });
    expect(uploadProblems(result)).toEqual([]);
  });

  it("keeps TPS per interval as a time series, with mean and peak", () => {
    const tps = metric(result, "tps");
    expect(tps).toMatchObject({ unit: "ops/s", direction: "higher_is_better" });
    // The TPS column of output.csv, row by row.
    expect(tps.timeSeries?.values).toEqual([
      226, 440, 664, 815, 1087, 1138, 1498, 1364, 1493, 1822, 1767, 1790, 1648, 1707, 1636, 1686, 1725, 1734, 1949, 1629, 1636, 1683, 1798, 1914, 1921, 1831,
      1945, 1732, 1723, 1625,
    ]);
    expect(tps.timeSeries?.offsetsMs).toEqual(Array.from({ length: 30 }, (_, i) => i * 1000));
    // The intervals' TPS: the total of tests is the tests metric, not a sum of rates.
    expect(tps.summary).toEqual({ n: 30, max: 1949, min: 226, mean: expect.any(Number) });
    expect(tps.summary?.mean).toBeCloseTo(1520.866667, 6);
  });

  it("sums tests and errors and weights the mean test time by tests", () => {
    expect(metric(result, "tests").summary).toEqual({ n: 1, mean: 45626, sum: 45626 });
    expect(metric(result, "errors")).toMatchObject({ direction: "lower_is_better", summary: { n: 1, mean: 520, sum: 520 } });
    const meanTime = metric(result, "mean_test_time");
    expect(meanTime).toMatchObject({ unit: "ms", direction: "lower_is_better" });
    expect(meanTime.summary?.n).toBe(45626);
    expect(meanTime.summary?.mean).toBeCloseTo(11.048871521, 8);
    expect(meanTime.timeSeries?.values.slice(0, 3)).toEqual([8.699, 8.926, 8.895]);
    expect(metric(result, "vusers").summary).toMatchObject({ n: 30, min: 2, max: 20, mean: 17 });
    expect(metric(result, "mean_time_to_first_byte").timeSeries?.values[0]).toBe(6.959);
  });

  it("makes one more benchmark per test when the report has per-test columns", () => {
    const two = importNgrinder(readFixture("ngrinder/output-two-tests.csv"));
    expect(two.benchmarks.map((b) => b.name)).toEqual(["ngrinder", "GET /", "POST /login"]);
    expect(metric(two, "tests", 0).summary?.sum).toBe(70404);
    expect(metric(two, "tests", 1).summary?.sum).toBe(45673);
    expect(metric(two, "tests", 2).summary?.sum).toBe(24731);
    expect(metric(two, "errors", 1).summary?.sum).toBe(389);
    expect(metric(two, "tps", 0).summary?.max).toBe(2974);
    expect(metric(two, "tps", 2).timeSeries?.values[0]).toBe(123);
    // vuser exists for the totals only.
    expect(two.benchmarks[1]?.repetitions[0]?.metrics.some((m) => m.key === "vusers")).toBe(false);
    expect(uploadProblems(two)).toEqual([]);
  });

  it("reads older reports without the vuser column", () => {
    const body = ["DateTime,Tests,Errors,Mean_Test_Time_(ms),TPS", "2013-01-02 10:00:00,10,1,2.5,10", "2013-01-02 10:00:03,20,0,.5,20"].join("\n");
    const old = importNgrinder(body);
    expect(metric(old, "tps").timeSeries).toEqual({ offsetsMs: [0, 3000], values: [10, 20] });
    expect(metric(old, "mean_test_time").summary).toEqual({ n: 30, mean: (10 * 2.5 + 20 * 0.5) / 30 });
  });
});

describe("importNgrinder refuses what is not an nGrinder report", () => {
  it.each([
    ["an empty body", "", /the body is empty/],
    ["another CSV", "name,value\nx,1\n", /expected nGrinder's CSV report/],
    ["a header without TPS", "DateTime,vuser,Tests,Errors,Mean_Test_Time_(ms)\n2026-11-21 06:00:00,1,1,0,1\n", /no TPS column/],
    ["a header only", `${HEADER}\n`, /no sampling rows/],
    ["a bad DateTime", [HEADER, row("00", "10").replace("2026-11-21 06:00:00", "21/11/2026 06:00")].join("\n"), /DateTime "21\/11\/2026 06:00" at line 2/],
    ["DateTime going backwards", [HEADER, row("05", "10"), row("04", "10")].join("\n"), /backwards at line 3/],
    ["a non-numeric cell", [HEADER, row("00", "many")].join("\n"), /non-numeric value "many" at line 2, column "Tests"/],
    ["NaN", [HEADER, row("00", "10", "NaN")].join("\n"), /NaN is not a finite number/],
    ["Infinity", [HEADER, row("00", "10", "0", "Infinity")].join("\n"), /Infinity is not a finite number/],
    ["negative errors", [HEADER, row("00", "10", "-2")].join("\n"), /negative Errors/],
    ["a ragged row", `${HEADER}\n2026-11-21 06:00:00,10,1\n`, /unreadable CSV/],
  ])("%s", (_what, body, message) => {
    expect(refusal(body)).toMatch(message);
  });

  it("says which tool's output it was given", () => {
    expect(refusal(readFixture("k6/out.csv"))).toMatch(/k6 CSV/);
    expect(refusal(readFixture("wrk/wrk-latency.txt"))).toMatch(/wrk/);
  });

  const foreign = foreignFixtures("ngrinder");
  it.each(foreign.map((f) => [f.relative, f.body] as const))("refuses fixture %s", (_name, body) => {
    expect(() => importNgrinder(body)).toThrow(ImportFormatError);
  });
});
