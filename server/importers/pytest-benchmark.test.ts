import { describe, expect, it } from "vitest";
import { foreignFixtures, readFixture } from "./fixture-files";
import { importPytestBenchmark } from "./pytest-benchmark";
import { uploadProblems } from "./result-checks";
import { ImportFormatError } from "./types";

const fixture = (name: string) => readFixture(`pytest-benchmark/${name}`);
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const sd = (xs: number[]) => Math.sqrt(xs.reduce((a, x) => a + (x - mean(xs)) ** 2, 0) / (xs.length - 1));
const expectRelative = (actual: number, expected: number, tolerance: number) =>
  expect(Math.abs(actual - expected) / Math.abs(expected)).toBeLessThan(tolerance);

interface RawStats {
  min: number;
  max: number;
  mean: number;
  stddev: number;
  median: number;
  rounds: number;
  iterations: number;
  data?: number[];
}
const rawStats = (name: string) => (JSON.parse(fixture(name)) as { benchmarks: { stats: RawStats }[] }).benchmarks.map((b) => b.stats);

describe("importPytestBenchmark", () => {
  it.each(["with-data.json", "summary.json"])("%s imports into runs the upload accepts", (name) => {
    expect(uploadProblems(importPytestBenchmark(fixture(name)))).toEqual([]);
  });

  describe("with-data.json (--benchmark-json: stats.data holds every round)", () => {
    const result = importPytestBenchmark(fixture("with-data.json"));
    const stats = rawStats("with-data.json");

    it("has one benchmark per test, params from parametrize", () => {
      expect(result.format).toBe("pytest-benchmark");
      expect(result.benchmarks.map((b) => [b.name, b.params, b.repetitions.length])).toEqual([
        ["test_sorted[16]", { size: "16" }, 1],
        ["test_sorted[1024]", { size: "1024" }, 1],
        ["test_join", undefined, 1],
        ["test_pedantic_sum", undefined, 1],
      ]);
    });

    it("keeps every round as a sample; pytest-benchmark's mean, median, stddev, min and max follow from them", () => {
      for (const [i, b] of result.benchmarks.entries()) {
        const time = b.repetitions[0]!.metrics[0]!;
        expect(time).toMatchObject({ key: "time", unit: "s", direction: "lower_is_better" });
        const samples = time.samples!;
        expect(samples).toEqual(stats[i]!.data);
        expect(samples).toHaveLength(stats[i]!.rounds);
        expectRelative(mean(samples), stats[i]!.mean, 1e-12);
        expect(median(samples)).toBe(stats[i]!.median);
        expectRelative(sd(samples), stats[i]!.stddev, 1e-9);
        expect(Math.min(...samples)).toBe(stats[i]!.min);
        expect(Math.max(...samples)).toBe(stats[i]!.max);
        expect(time.summary).toEqual({
          n: stats[i]!.rounds,
          mean: stats[i]!.mean,
          sd: stats[i]!.stddev,
          min: stats[i]!.min,
          max: stats[i]!.max,
          p50: stats[i]!.median,
        });
      }
    });

    it("has the numbers pytest-benchmark printed", () => {
      // test_pedantic_sum: benchmark.pedantic(rounds=20, iterations=5)
      const pedantic = result.benchmarks[3]!.repetitions[0]!;
      expect(pedantic.metrics[0]!.summary).toMatchObject({ n: 20, mean: 0.000008689470009812794, p50: 0.00000869289997353917 });
      expect(pedantic.environment).toMatchObject({ iterations: 5 });
      expect(result.benchmarks[0]!.repetitions[0]!.metrics[0]!.summary).toMatchObject({ n: 948, mean: 4.97771874326563e-7, p50: 2.683157761470954e-7 });
    });

    it("records group, iterations and options per benchmark, machine and commit for the file", () => {
      expect(result.benchmarks[2]!.repetitions[0]!.environment).toMatchObject({
        group: "strings",
        iterations: 10,
        options: { timer: "perf_counter", max_time: 0.005 },
      });
      expect(result.benchmarks[0]!.repetitions[0]!.environment).not.toHaveProperty("group");
      const env = result.environment as {
        machine_info: { cpu: Record<string, unknown>; python_version: string };
        commit_info: { id: string };
        "pytest-benchmark": string;
      };
      expect(env["pytest-benchmark"]).toBe("5.3.1");
      expect(env.machine_info.python_version).toBe("3.11.7");
      expect(env.machine_info.cpu.brand_raw).toBe("AMD EPYC");
      expect(env.machine_info.cpu).not.toHaveProperty("flags");
      expect(env.commit_info.id).toMatch(/^[0-9a-f]{40}$/);
    });
  });

  describe("summary.json (the --benchmark-save file of the same session: no stats.data)", () => {
    const result = importPytestBenchmark(fixture("summary.json"));

    it("has the tool's summary only, the same figures as the --benchmark-json file", () => {
      const withData = rawStats("with-data.json");
      for (const [i, b] of result.benchmarks.entries()) {
        const time = b.repetitions[0]!.metrics[0]!;
        expect(time.samples).toBeUndefined();
        expect(time.summary).toEqual({
          n: withData[i]!.rounds,
          mean: withData[i]!.mean,
          sd: withData[i]!.stddev,
          min: withData[i]!.min,
          max: withData[i]!.max,
          p50: withData[i]!.median,
        });
      }
    });
  });

  describe("other shapes", () => {
    const entry = (overrides: Record<string, unknown>) => ({
      name: "test_x",
      fullname: "a.py::test_x",
      params: null,
      stats: { min: 1, max: 3, mean: 2, stddev: 1, median: 2, rounds: 3, iterations: 1 },
      ...overrides,
    });

    it("the same test name in two modules falls back to fullname", () => {
      const result = importPytestBenchmark(JSON.stringify({ benchmarks: [entry({}), entry({ fullname: "b.py::test_x" })] }));
      expect(result.benchmarks.map((b) => b.name)).toEqual(["a.py::test_x", "b.py::test_x"]);
      expect(result.environment).toEqual({});
    });

    it("params that are not strings are printed as text", () => {
      const result = importPytestBenchmark(
        JSON.stringify({ benchmarks: [entry({ params: { n: 1.5, flag: true, none: null, shape: [2, 3], codec: "zstd" } })] }),
      );
      expect(result.benchmarks[0]!.params).toEqual({ n: "1.5", flag: "true", none: "null", shape: "[2,3]", codec: "zstd" });
    });
  });

  describe("rejects what is not pytest-benchmark JSON", () => {
    const rejects = (body: string, message: RegExp | string) => {
      expect(() => importPytestBenchmark(body)).toThrow(ImportFormatError);
      expect(() => importPytestBenchmark(body)).toThrow(message);
    };
    const withStats = (stats: Record<string, unknown>) => {
      const file = JSON.parse(fixture("summary.json")) as { benchmarks: { stats: Record<string, unknown> }[] };
      file.benchmarks[0]!.stats = { ...file.benchmarks[0]!.stats, ...stats };
      return JSON.stringify(file);
    };

    it("an empty body", () => rejects("\n", "the body is empty"));
    it("malformed JSON", () => rejects('{"benchmarks": [{"name": ', "malformed JSON"));
    it("Google Benchmark JSON (also has a benchmarks array)", () => {
      const body = readFixture("google-benchmark/repetitions.json");
      rejects(body, /expected a pytest-benchmark JSON object with "benchmarks" \(each with "name" and "stats"\).*benchmarks\.0\.stats/);
    });
    it("no benchmarks", () => rejects('{"benchmarks": []}', '"benchmarks" is empty'));
    it("a negative time", () => rejects(withStats({ mean: -1 }), /benchmarks\.0\.stats\.mean/));
    it("zero rounds", () => rejects(withStats({ rounds: 0 }), /benchmarks\.0\.stats\.rounds/));
    it("a NaN sample", () => rejects(withStats({ data: [1, "NaN", 2] }), /benchmarks\.0\.stats\.data\.1/));
    it("data and rounds that disagree", () => rejects(withStats({ data: [1e-6, 2e-6] }), "has 2 values in stats.data but stats.rounds is 948"));

    it("every other tool's fixture", () => {
      for (const { relative, body } of foreignFixtures("pytest-benchmark")) expect(() => importPytestBenchmark(body), relative).toThrow(ImportFormatError);
    });
  });
});
