import { describe, expect, it } from "vitest";
import { importToUpload, metricKey, variantName } from "./to-upload";
import type { ImportResult } from "./types";

const bench = (name: string, unit: string, direction: "lower_is_better" | "higher_is_better", values: number[]) => ({
  name,
  repetitions: values.map((mean) => ({ metrics: [{ key: "score", unit, direction, summary: { n: 1, mean } }] })),
});

const jmhLike: ImportResult = {
  format: "jmh",
  benchmarks: [bench("Bench.sum", "ops/ms", "higher_is_better", [10, 11]), bench("Bench.copySort", "us", "lower_is_better", [3])],
};

describe("importToUpload", () => {
  it("makes a variant per benchmark and a run per repetition", () => {
    const upload = importToUpload(
      { format: "x", benchmarks: [bench("A", "ns", "lower_is_better", [1, 2]), bench("B", "ns", "lower_is_better", [3])] },
      { experiment: "e", create: true },
    );
    expect(upload.runs.map((run) => [run.variant, run.metrics[0]?.key, run.metrics[0]?.summary?.mean])).toEqual([
      ["A", "score", 1],
      ["A", "score", 2],
      ["B", "score", 3],
    ]);
  });

  it("splits a key whose benchmarks disagree on the unit into one metric per unit", () => {
    const upload = importToUpload(jmhLike, { experiment: "e", create: true });
    expect(upload.runs.map((run) => [run.variant, run.metrics[0]?.key, run.metrics[0]?.unit])).toEqual([
      ["Bench.sum", "score:ops/ms", "ops/ms"],
      ["Bench.sum", "score:ops/ms", "ops/ms"],
      ["Bench.copySort", "score:us", "us"],
    ]);
  });

  it("with split=metric puts every benchmark into the given variant, keyed by benchmark", () => {
    const upload = importToUpload(jmhLike, { experiment: "e", variant: "v1", create: true });
    expect(upload.runs).toHaveLength(2);
    expect(upload.runs[0]?.metrics.map((m) => m.key)).toEqual(["Bench.sum:score", "Bench.copySort:score"]);
    expect(upload.runs[1]?.metrics.map((m) => m.key)).toEqual(["Bench.sum:score"]);
  });

  it("refuses one variant for several benchmarks with split=variant, naming the way out", () => {
    expect(() => importToUpload(jmhLike, { experiment: "e", variant: "v1", split: "variant", create: true })).toThrow(/split=metric/);
  });
});

describe("names", () => {
  it("adds parameters the name does not already carry", () => {
    expect(variantName("BenchmarkGzip", { size: "1KB" })).toBe("BenchmarkGzip [size=1KB]");
    expect(variantName("BenchmarkGzip/size=1KB", { size: "1KB" })).toBe("BenchmarkGzip/size=1KB");
  });

  it("keeps metric keys within the allowed characters and length, distinct after cutting", () => {
    expect(metricKey("sort -n > /dev/null")).toBe("sort_-n_/dev/null");
    const long = (tail: string) => metricKey(`${"x".repeat(80)}${tail}`);
    expect(long("a")).toHaveLength(64);
    expect(long("a")).not.toBe(long("b"));
    expect(long("a")).toMatch(/^[A-Za-z0-9_.:/-]+$/);
  });
});
