import { describe, expect, it } from "vitest";
import { foreignFixtures, readFixture } from "./fixture-files";
import { importGoogleBenchmark } from "./google-benchmark";
import { uploadProblems } from "./result-checks";
import type { ImportedMetric } from "./types";
import { ImportFormatError } from "./types";

const fixture = (name: string) => readFixture(`google-benchmark/${name}`);
const value = (metrics: ImportedMetric[], key: string) => metrics.find((m) => m.key === key)?.summary?.mean;
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const expectRelative = (actual: number, expected: number, tolerance: number) =>
  expect(Math.abs(actual - expected) / Math.abs(expected)).toBeLessThan(tolerance);

interface RawRow {
  name: string;
  run_name: string;
  run_type: string;
  aggregate_name?: string;
  repetition_index?: number;
  iterations: number;
  real_time: number;
  cpu_time: number;
  time_unit: string;
  [counter: string]: unknown;
}

describe("importGoogleBenchmark", () => {
  it.each(["repetitions.json"])("%s imports into runs the upload accepts", (name) => {
    expect(uploadProblems(importGoogleBenchmark(fixture(name)))).toEqual([]);
  });

  describe("repetitions.json (--benchmark_repetitions=3, Arg(16)/Arg(1024), SetBytes/ItemsProcessed, a user counter)", () => {
    const result = importGoogleBenchmark(fixture("repetitions.json"));
    const rows = (JSON.parse(fixture("repetitions.json")) as { benchmarks: RawRow[] }).benchmarks;
    const iterationRows = (runName: string) => rows.filter((r) => r.run_name === runName && r.run_type === "iteration");
    const aggregate = (runName: string, which: string) => rows.find((r) => r.run_name === runName && r.aggregate_name === which)!;

    it("has one benchmark per run_name and one repetition per iteration row", () => {
      expect(result.format).toBe("google-benchmark");
      expect(result.benchmarks.map((b) => [b.name, b.params, b.repetitions.length])).toEqual([
        ["BM_SortVector/16", undefined, 3],
        ["BM_SortVector/1024", undefined, 3],
        ["BM_StringConcat", undefined, 3],
      ]);
    });

    it("keeps each repetition's real_time and cpu_time as printed, with the row's iterations as n", () => {
      for (const b of result.benchmarks) {
        const printed = iterationRows(b.name);
        expect(printed.map((r) => r.repetition_index)).toEqual([0, 1, 2]);
        b.repetitions.forEach((rep, i) => {
          const row = printed[i]!;
          expect(rep.metrics.slice(0, 2)).toEqual([
            {
              key: "real_time",
              unit: row.time_unit,
              direction: "lower_is_better",
              label: "Real time per iteration",
              summary: { n: row.iterations, mean: row.real_time },
            },
            {
              key: "cpu_time",
              unit: row.time_unit,
              direction: "lower_is_better",
              label: "CPU time per iteration",
              summary: { n: row.iterations, mean: row.cpu_time },
            },
          ]);
        });
      }
      // "real_time": 7.7957822566223783e+01 for BM_SortVector/16, repetition 0
      expect(value(result.benchmarks[0]!.repetitions[0]!.metrics, "real_time")).toBe(77.95782256622378);
      expect(result.benchmarks[2]!.repetitions[1]!.metrics[0]).toMatchObject({ unit: "us", summary: { n: 1321787, mean: 0.1282003136663173 } });
    });

    it("ignores the aggregate rows, which the repetitions reproduce", () => {
      for (const b of result.benchmarks) {
        const real = b.repetitions.map((r) => value(r.metrics, "real_time")!);
        expectRelative(mean(real), aggregate(b.name, "mean").real_time, 1e-12);
        expect([...real].sort((x, y) => x - y)[1]).toBeCloseTo(aggregate(b.name, "median").real_time, 12);
      }
    });

    it("turns counters into metrics: rates higher-is-better, user counters as counts", () => {
      const metrics = result.benchmarks[1]!.repetitions[2]!.metrics;
      const row = iterationRows("BM_SortVector/1024")[2]!;
      expect(metrics.slice(2)).toEqual([
        { key: "bytes_per_second", unit: "B/s", direction: "higher_is_better", value: row.bytes_per_second },
        { key: "elements", unit: "count", direction: "lower_is_better", summary: { n: 36688, mean: 1024 } },
        { key: "items_per_second", unit: "items/s", direction: "higher_is_better", value: row.items_per_second },
      ]);
      expect(result.benchmarks[2]!.repetitions[0]!.metrics.map((m) => m.key)).toEqual(["real_time", "cpu_time"]);
    });

    it("takes the environment from context", () => {
      expect(result.environment).toMatchObject({ host_name: "vm", num_cpus: 2, mhz_per_cpu: 2596, cpu_scaling_enabled: false, library_build_type: "debug" });
      expect((result.environment as { caches: unknown[] }).caches).toHaveLength(4);
      expect(result.benchmarks[0]!.repetitions[0]!.environment).toEqual({ threads: 1 });
    });
  });

  describe("shapes other options and versions produce", () => {
    const run = (name: string, extra: Record<string, unknown> = {}) =>
      `{"name": "${name}", "run_name": "${name}", "run_type": "iteration", "repetitions": 1, "repetition_index": 0, "threads": 1, "iterations": 10, "real_time": 5, "cpu_time": 4, "time_unit": "ms"${Object.entries(
        extra,
      )
        .map(([k, v]) => `, "${k}": ${v}`)
        .join("")}}`;
    const file = (...rows: string[]) => `{"context": {"num_cpus": 4}, "benchmarks": [${rows.join(",\n")}]}`;

    it("reads the bare NaN and Infinity the library prints, dropping such counters", () => {
      const body = file(
        run("BM_A", { hit_rate: "NaN", misses: "-Infinity", hits: 3 }),
        `{"name": "BM_A_cv", "run_name": "BM_A", "run_type": "aggregate", "aggregate_name": "cv", "hit_rate": NaN}`,
      );
      const metrics = importGoogleBenchmark(body).benchmarks[0]!.repetitions[0]!.metrics;
      expect(metrics.map((m) => m.key)).toEqual(["real_time", "cpu_time", "hits"]);
    });

    it("leaves out runs that reported an error or were skipped", () => {
      const body = file(
        run("BM_A"),
        `{"name": "BM_B", "run_name": "BM_B", "run_type": "iteration", "repetitions": 1, "repetition_index": 0, "threads": 1, "error_occurred": true, "error_message": "no data", "iterations": 0, "real_time": 0, "cpu_time": 0, "time_unit": "ns"}`,
        `{"name": "BM_C", "run_name": "BM_C", "run_type": "iteration", "skipped": true, "skip_message": "later"}`,
      );
      expect(importGoogleBenchmark(body).benchmarks.map((b) => b.name)).toEqual(["BM_A"]);
    });

    it("named arguments, threads and flags in the run name", () => {
      const result = importGoogleBenchmark(file(run("BM_Copy/size:64/8/real_time/threads:2", { label: '"fast path"' })));
      expect(result.benchmarks[0]!.params).toEqual({ size: "64", threads: "2" });
      expect(result.benchmarks[0]!.repetitions[0]!.environment).toEqual({ threads: 1, label: "fast path" });
    });

    it("orders repetitions by repetition_index and reads MemoryManager figures", () => {
      const body = file(
        run("BM_A", { repetition_index: 1, real_time: 7 }).replace('"repetition_index": 0, ', ""),
        run("BM_A", { allocs_per_iter: 2, max_bytes_used: 4096 }),
      );
      const reps = importGoogleBenchmark(body).benchmarks[0]!.repetitions;
      expect(reps.map((r) => value(r.metrics, "real_time"))).toEqual([5, 7]);
      expect(reps[0]!.metrics.slice(2).map((m) => [m.key, m.unit, m.direction])).toEqual([
        ["allocs_per_iter", "count", "lower_is_better"],
        ["max_bytes_used", "B", "lower_is_better"],
      ]);
    });
  });

  describe("rejects what is not Google Benchmark JSON", () => {
    const rejects = (body: string, message: RegExp | string) => {
      expect(() => importGoogleBenchmark(body)).toThrow(ImportFormatError);
      expect(() => importGoogleBenchmark(body)).toThrow(message);
    };
    const withFirstRow = (changes: Record<string, unknown>) => {
      const parsed = JSON.parse(fixture("repetitions.json")) as { benchmarks: Record<string, unknown>[] };
      parsed.benchmarks[0] = { ...parsed.benchmarks[0], ...changes };
      return JSON.stringify(parsed);
    };

    it("an empty body", () => rejects("", "the body is empty"));
    it("malformed JSON", () => rejects('{"context": {}, "benchmarks": [', "malformed JSON"));
    it("console output", () => rejects("Run on (2 X 2596 MHz CPU s)\nBM_SortVector/16   77.9 ns   73.9 ns   1940137\n", "expected a JSON document"));
    it("a pytest-benchmark file (also has a benchmarks array)", () => {
      const body = readFixture("pytest-benchmark/summary.json");
      rejects(body, /expected a Google Benchmark JSON object with "context" and "benchmarks" \(this looks like pytest-benchmark JSON\): context/);
    });
    it("no benchmarks", () => rejects('{"context": {}, "benchmarks": []}', '"benchmarks" is empty'));
    it("aggregates only (--benchmark_report_aggregates_only)", () => {
      const parsed = JSON.parse(fixture("repetitions.json")) as { benchmarks: { run_type: string }[] };
      parsed.benchmarks = parsed.benchmarks.filter((b) => b.run_type === "aggregate");
      rejects(JSON.stringify(parsed), 'no rows with run_type "iteration"');
    });
    it("a NaN time", () =>
      rejects(
        fixture("repetitions.json").replace('"real_time": 7.7957822566223783e+01', '"real_time": NaN'),
        /benchmarks\[0\] \("BM_SortVector\/16"\) is not a measured run: real_time/,
      ));
    it("a negative time", () => rejects(withFirstRow({ cpu_time: -1 }), /is not a measured run: cpu_time/));
    it("zero iterations", () => rejects(withFirstRow({ iterations: 0 }), /is not a measured run: iterations/));
    it("an unknown time unit", () => rejects(withFirstRow({ time_unit: "fortnight" }), /time_unit/));

    it("every other tool's fixture", () => {
      for (const { relative, body } of foreignFixtures("google-benchmark")) expect(() => importGoogleBenchmark(body), relative).toThrow(ImportFormatError);
    });
  });
});
