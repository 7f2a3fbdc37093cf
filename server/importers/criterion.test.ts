import { describe, expect, it } from "vitest";
import { importCriterion } from "./criterion";
import { foreignFixtures, readFixture } from "./fixture-files";
import { metricOf as metric, refusalOf, uploadProblems } from "./result-checks";
import { ImportFormatError } from "./types";

const refusal = (body: string) => refusalOf(importCriterion, body);

const json = (relative: string): unknown => JSON.parse(readFixture(relative));
const sample = { sampling_mode: "Flat", iters: [10, 10, 10], times: [100, 120, 110] };

describe("importCriterion on Criterion.rs's files", () => {
  const bundle = importCriterion(readFixture("criterion/bundle.json"));

  it("gives one benchmark per entry of the bundle, named by Criterion's id", () => {
    expect(bundle.format).toBe("criterion");
    expect(bundle.benchmarks.map((b) => b.name)).toEqual(["fib_15", "sort/unstable/1000"]);
    expect(bundle.benchmarks[1]?.params).toEqual({ input: "1000" });
    expect(uploadProblems(bundle)).toEqual([]);
  });

  it("turns sample.json into per-iteration times: times[i] / iters[i]", () => {
    const time = metric(bundle, "time");
    expect(time).toMatchObject({ unit: "ns", direction: "lower_is_better" });
    expect(time.samples).toHaveLength(20);
    // fib_15/sample.json: iters[0] = 1974, times[0] = 6642347 ns
    expect(time.samples?.[0]).toBe(6642347 / 1974);
  });

  it("reports Criterion's estimates, and its mean is the mean of the samples", () => {
    // fib_15/estimates.json point estimates
    const time = metric(bundle, "time");
    expect(time.summary).toMatchObject({ n: 20, mean: 1883.5303943417262, p50: 1874.6431285280069, sd: 481.0553502630169 });
    const samples = time.samples ?? [];
    expect(samples.reduce((a, b) => a + b, 0) / samples.length).toBeCloseTo(1883.5303943417262, 9);
    expect(time.label).toBe("Time per iteration (mean 95% CI 1697.9–2106.5 ns)");
    // The slope is a regression over the samples, the run's value: no summary of n values.
    expect(metric(bundle, "time_slope")).toMatchObject({ value: 1799.0300858900903 });
    expect(metric(bundle, "time_slope").summary).toBeUndefined();
    const sort = metric(bundle, "time", 1);
    expect(sort.summary?.mean).toBe(448.65537239667657);
    const sortSamples = sort.samples ?? [];
    expect(sortSamples.reduce((a, b) => a + b, 0) / sortSamples.length).toBeCloseTo(448.65537239667657, 9);
  });

  it("derives throughput from benchmark.json's Elements", () => {
    const throughput = metric(bundle, "throughput", 1);
    expect(throughput).toMatchObject({ unit: "elem/s", direction: "higher_is_better" });
    // sort_unstable_1000/sample.json: 1000 elements in times[0] / iters[0] = 4051022 / 10520 ns
    expect(throughput.samples?.[0]).toBeCloseTo((1000 * 1e9) / (4051022 / 10520), 3);
    // The run's rate: 1000 elements per iteration ÷ Criterion's mean time per iteration.
    expect(throughput.value).toBeCloseTo((1000 * 1e9) / 448.65537239667657, 6);
  });

  it("accepts one {sample, estimates, benchmark} entry, or sample.json alone", () => {
    const entry = {
      sample: json("criterion/fib_15/sample.json"),
      estimates: json("criterion/fib_15/estimates.json"),
      benchmark: json("criterion/fib_15/benchmark.json"),
    };
    const single = importCriterion(JSON.stringify(entry));
    expect(single.benchmarks.map((b) => b.name)).toEqual(["fib_15"]);
    expect(metric(single, "time").summary?.mean).toBe(1883.5303943417262);
    const alone = importCriterion(readFixture("criterion/sort_unstable_1000/sample.json"));
    expect(alone.benchmarks.map((b) => b.name)).toEqual(["criterion"]);
    expect(metric(alone, "time").samples).toHaveLength(20);
    expect(alone.benchmarks[0]?.repetitions[0]?.metrics.map((m) => m.key)).toEqual(["time"]);
    expect(uploadProblems(alone)).toEqual([]);
  });

  it("reads a flat-mode sample without a slope", () => {
    const flat = importCriterion(JSON.stringify({ x: { sample } }));
    expect(metric(flat, "time").samples).toEqual([10, 12, 11]);
    expect(flat.benchmarks[0]?.repetitions[0]?.metrics.map((m) => m.key)).toEqual(["time"]);
  });
});

describe("importCriterion refuses what is not Criterion output", () => {
  it.each([
    ["an empty body", "", /the body is empty/],
    ["malformed JSON", '{"iters": [1, 2', /malformed JSON/],
    ["text", "fib_15  time: [1.4 µs 1.6 µs 1.7 µs]", /expected a JSON document/],
    ["a JSON array", "[1, 2, 3]", /found an array/],
    ["JSON of another shape", '{"results": [{"command": "sleep 1"}]}', /found keys "results"/],
    ["estimates.json alone", readFixture("criterion/fib_15/estimates.json"), /estimates\.json alone, which has no sample count/],
    ["benchmark.json alone", readFixture("criterion/fib_15/benchmark.json"), /benchmark\.json alone/],
    ["non-numeric times", JSON.stringify({ ...sample, times: [1, "2", 3] }), /sample\.json is not valid: times\.1/],
    ["an infinite time", '{"iters": [1, 2], "times": [1, 1e999]}', /times\.1: .*not a finite number/],
    ["a negative time", JSON.stringify({ ...sample, times: [1, -2, 3] }), /times cannot be negative/],
    ["a zero iteration count", JSON.stringify({ ...sample, iters: [10, 0, 10] }), /iteration counts must be positive/],
    ["iters and times of different lengths", JSON.stringify({ ...sample, times: [1, 2] }), /iters and times differ in length/],
    ["an empty sample", JSON.stringify({ iters: [], times: [] }), /iters is empty/],
    ["estimates of another run", JSON.stringify({ b: { sample, estimates: json("criterion/fib_15/estimates.json") } }), /is not the mean of sample\.json/],
    ["a bundle entry without a sample", JSON.stringify({ b: { sample: { iters: [1] } } }), /benchmark "b" is not valid/],
  ])("%s", (_what, body, message) => {
    expect(refusal(body)).toMatch(message);
  });

  it("says which tool's output it was given", () => {
    expect(refusal(readFixture("k6/summary.json"))).toMatch(/k6 summary/);
    expect(refusal(readFixture("wrk/wrk-latency.txt"))).toMatch(/wrk/);
  });

  const foreign = foreignFixtures("criterion");
  it.each(foreign.map((f) => [f.relative, f.body] as const))("refuses fixture %s", (_name, body) => {
    expect(() => importCriterion(body)).toThrow(ImportFormatError);
  });
});
