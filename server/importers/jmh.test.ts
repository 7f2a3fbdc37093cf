import { describe, expect, it } from "vitest";
import { foreignFixtures, readFixture } from "./fixture-files";
import { importJmh } from "./jmh";
import { uploadProblems } from "./result-checks";
import type { ImportedMetric, ImportResult } from "./types";
import { ImportFormatError } from "./types";

const fixture = (name: string) => readFixture(`jmh/${name}`);

// Only what the assertions read from JMH's own file, to compare against the import.
interface RawResult {
  benchmark: string;
  mode: string;
  params: Record<string, string>;
  primaryMetric: { score: number; scoreError: number; scoreConfidence: number[]; scorePercentiles: Record<string, number>; rawData?: number[][] };
  secondaryMetrics: Record<string, { rawData: number[][] }>;
}

const raw = (name: string) => JSON.parse(fixture(name)) as RawResult[];
const find = (result: ImportResult, name: string, size: string) => {
  const benchmark = result.benchmarks.find((b) => b.name === name && b.params?.size === size);
  if (!benchmark) throw new Error(`no ${name} size=${size}`);
  return benchmark;
};
const metric = (metrics: ImportedMetric[], key: string) => {
  const found = metrics.find((m) => m.key === key);
  if (!found) throw new Error(`no metric ${key}`);
  return found;
};
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const sd = (xs: number[]) => Math.sqrt(xs.reduce((a, x) => a + (x - mean(xs)) ** 2, 0) / (xs.length - 1));
const expectRelative = (actual: number, expected: number, tolerance: number) =>
  expect(Math.abs(actual - expected) / Math.abs(expected)).toBeLessThan(tolerance);

/** Student's t CDF for whole degrees of freedom: the closed forms of Abramowitz & Stegun 26.7.3–4. */
function studentTCdf(t: number, df: number): number {
  const theta = Math.atan(t / Math.sqrt(df));
  const c2 = Math.cos(theta) ** 2;
  let sum = 1;
  let term = 1;
  for (let k = df % 2 === 1 ? 3 : 2; k <= df - 2; k += 2) {
    term *= ((k - 1) / k) * c2;
    sum += term;
  }
  const a = df % 2 === 1 ? (2 / Math.PI) * (theta + (df > 1 ? Math.sin(theta) * Math.cos(theta) * sum : 0)) : Math.sin(theta) * sum;
  return (1 + a) / 2;
}

/** The quantile JMH uses for scoreError (commons-math TDistribution.inverseCumulativeProbability). */
function studentTQuantile(p: number, df: number): number {
  let lo = 0;
  let hi = 1e4;
  for (let i = 0; i < 200; i++) {
    const mid = (lo + hi) / 2;
    if (studentTCdf(mid, df) < p) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/** JMH's scoreError: the half-width of the 99.9% confidence interval of the mean. */
const jmhScoreError = (n: number, stdev: number) => (studentTQuantile(1 - 0.001 / 2, n - 1) * stdev) / Math.sqrt(n);

describe("importJmh", () => {
  it.each(["params-gc.json", "sample-ss.json"])("%s imports into runs the upload accepts", (name) => {
    expect(uploadProblems(importJmh(fixture(name)))).toEqual([]);
  });

  describe("params-gc.json (avgt + thrpt, @Param size=16,1024, -prof gc, -f 2 -i 3)", () => {
    const result = importJmh(fixture("params-gc.json"));
    const rawResults = raw("params-gc.json");

    it("has one benchmark per method and @Param value, one repetition per fork", () => {
      expect(result.format).toBe("jmh");
      expect(result.benchmarks.map((b) => [b.name, b.params])).toEqual([
        ["versus.fixture.FixtureBench.sum", { size: "16" }],
        ["versus.fixture.FixtureBench.sum", { size: "1024" }],
        ["versus.fixture.FixtureBench.copySort", { size: "16" }],
        ["versus.fixture.FixtureBench.copySort", { size: "1024" }],
      ]);
      for (const b of result.benchmarks) expect(b.repetitions).toHaveLength(2);
    });

    it("keeps each fork's iteration scores as the samples, exactly as JMH wrote them", () => {
      const sum16 = find(result, "versus.fixture.FixtureBench.sum", "16");
      expect(metric(sum16.repetitions[0]!.metrics, "score").samples).toEqual([164719.64133956278, 210344.77727566808, 203828.3402844666]);
      expect(metric(sum16.repetitions[1]!.metrics, "score").samples).toEqual([133871.4573916162, 135019.60522579448, 146256.0456143462]);
      for (const [i, b] of result.benchmarks.entries()) {
        expect(b.repetitions.map((r) => metric(r.metrics, "score").samples)).toEqual(rawResults[i]!.primaryMetric.rawData);
      }
    });

    it("reproduces JMH's score (mean) and scoreError (99.9% interval) from the samples", () => {
      for (const [i, b] of result.benchmarks.entries()) {
        const samples = b.repetitions.flatMap((r) => metric(r.metrics, "score").samples ?? []);
        const { score, scoreError, scoreConfidence } = rawResults[i]!.primaryMetric;
        expect(samples).toHaveLength(6);
        expectRelative(mean(samples), score, 1e-9);
        // commons-math finds the t quantile to about 1e-9 absolute, so the error agrees to ~1e-10.
        expectRelative(jmhScoreError(samples.length, sd(samples)), scoreError, 1e-8);
        expectRelative(mean(samples) - jmhScoreError(samples.length, sd(samples)), scoreConfidence[0]!, 1e-8);
      }
    });

    it("normalises units and sets the direction from the mode", () => {
      const sum = metric(find(result, "versus.fixture.FixtureBench.sum", "16").repetitions[0]!.metrics, "score");
      expect(sum).toMatchObject({ unit: "ops/ms", direction: "higher_is_better", label: "Throughput" });
      const copy = metric(find(result, "versus.fixture.FixtureBench.copySort", "1024").repetitions[0]!.metrics, "score");
      expect(copy).toMatchObject({ unit: "ns", direction: "lower_is_better", label: "Average time" });
    });

    it("turns the GC profiler's secondary metrics into per-fork metrics", () => {
      const copy = find(result, "versus.fixture.FixtureBench.copySort", "1024");
      const raw1024 = rawResults[3]!;
      const metrics = copy.repetitions[1]!.metrics;
      expect(metrics.map((m) => m.key)).toEqual(["score", "gc.alloc.rate", "gc.alloc.rate.norm", "gc.count", "gc.time"]);
      expect(metric(metrics, "gc.alloc.rate.norm")).toEqual({
        key: "gc.alloc.rate.norm",
        unit: "B",
        direction: "lower_is_better",
        samples: raw1024.secondaryMetrics["gc.alloc.rate.norm"]!.rawData[1],
      });
      expect(metric(metrics, "gc.alloc.rate.norm").samples?.[0]).toBe(4112.080878695401);
      // Allocating faster is not better, even though MB/sec is a rate.
      expect(metric(metrics, "gc.alloc.rate")).toMatchObject({ unit: "MB/s", direction: "lower_is_better" });
      expect(metric(metrics, "gc.count")).toMatchObject({ unit: "count", direction: "lower_is_better", samples: [2, 1, 1] });
      expect(metric(metrics, "gc.time")).toMatchObject({ unit: "ms", direction: "lower_is_better", samples: [7, 3, 2] });
    });

    it("reports the JVM for the file and the run configuration per fork", () => {
      expect(result.environment).toEqual({
        jmhVersion: "1.37",
        jdkVersion: "17.0.15",
        vmName: "OpenJDK 64-Bit Server VM",
        vmVersion: "17.0.15+6-Debian-1deb12u1",
        jvm: "/usr/lib/jvm/java-17-openjdk-amd64/bin/java",
      });
      expect(result.benchmarks[0]!.repetitions[1]!.environment).toEqual({
        fork: 2,
        mode: "thrpt",
        threads: 1,
        forks: 2,
        jvmArgs: [],
        warmupIterations: 1,
        warmupTime: "1 s",
        warmupBatchSize: 1,
        measurementIterations: 3,
        measurementTime: "1 s",
        measurementBatchSize: 1,
      });
    });
  });

  describe("sample-ss.json (sample mode with rawDataHistogram, single-shot mode)", () => {
    const result = importJmh(fixture("sample-ss.json"));
    const [rawSample, rawSingleShot] = raw("sample-ss.json");

    it("summarises each fork's histogram; together they give JMH's score, count and extremes", () => {
      const sampled = result.benchmarks[0]!;
      expect(sampled.name).toBe("versus.fixture.FixtureBench.sampledFormat");
      const summaries = sampled.repetitions.map((r) => {
        expect(r.metrics).toHaveLength(1); // the p0.00…p1.00 secondaries are not repeated as metrics
        const score = metric(r.metrics, "score");
        expect(score).toMatchObject({ unit: "us", direction: "lower_is_better", label: "Sampling time" });
        expect(score.samples).toBeUndefined();
        return score.summary!;
      });
      const n = summaries.reduce((total, s) => total + s.n, 0);
      const pooledMean = summaries.reduce((total, s) => total + s.n * s.mean, 0) / n;
      // JMH's console table printed "Cnt 149517" and score 6.370 ± 3.437 us/op for this run.
      expect(n).toBe(149517);
      expectRelative(pooledMean, rawSample!.primaryMetric.score, 1e-9);
      expect(Math.min(...summaries.map((s) => s.min!))).toBe(rawSample!.primaryMetric.scorePercentiles["0.0"]);
      expect(Math.max(...summaries.map((s) => s.max!))).toBe(rawSample!.primaryMetric.scorePercentiles["100.0"]);
      const pooledVariance = summaries.reduce((total, s) => total + (s.n - 1) * s.sd! ** 2 + s.n * (s.mean - pooledMean) ** 2, 0) / (n - 1);
      expectRelative(jmhScoreError(n, Math.sqrt(pooledVariance)), rawSample!.primaryMetric.scoreError, 1e-6);
      for (const s of summaries) {
        expect(s.min! <= s.p50! && s.p50! <= s.p90! && s.p90! <= s.p99! && s.p99! <= s.p999! && s.p999! <= s.max!).toBe(true);
      }
    });

    it("keeps single-shot times as samples and reproduces score and scoreError", () => {
      const single = result.benchmarks[1]!;
      expect(single.name).toBe("versus.fixture.FixtureBench.singleShotSort");
      expect(single.repetitions.map((r) => metric(r.metrics, "score").samples)).toEqual([
        [9.735, 7.902, 4.417],
        [8.933, 6.65, 5.358],
      ]);
      const samples = single.repetitions.flatMap((r) => metric(r.metrics, "score").samples!);
      expectRelative(mean(samples), rawSingleShot!.primaryMetric.score, 1e-9);
      expectRelative(jmhScoreError(samples.length, sd(samples)), rawSingleShot!.primaryMetric.scoreError, 1e-8);
      expect(metric(single.repetitions[0]!.metrics, "score")).toMatchObject({ unit: "us", direction: "lower_is_better", label: "Single shot invocation time" });
    });
  });

  describe("shapes other JMH versions and options produce", () => {
    // The first fixture result, reshaped: small enough to read in each test.
    const base = () =>
      JSON.parse(fixture("params-gc.json"))[2] as Record<string, unknown> & {
        primaryMetric: Record<string, unknown>;
        secondaryMetrics: Record<string, unknown>;
      };

    it("drops the '·' older JMH versions put before secondary metric names", () => {
      const entry = base();
      entry.secondaryMetrics = { "·gc.alloc.rate.norm": { scoreUnit: "B/op", rawData: [[80], [80]] } };
      const metrics = importJmh(JSON.stringify([entry])).benchmarks[0]!.repetitions[0]!.metrics;
      expect(metrics.map((m) => m.key)).toEqual(["score", "gc.alloc.rate.norm"]);
    });

    it("skips a secondary metric whose rawData holds NaN, instead of rejecting the file", () => {
      const entry = base();
      entry.secondaryMetrics = { "gc.alloc.rate.norm": { scoreUnit: "B/op", rawData: [["NaN"], [80]] } };
      const reps = importJmh(JSON.stringify([entry])).benchmarks[0]!.repetitions;
      expect(reps[0]!.metrics.map((m) => m.key)).toEqual(["score"]);
      expect(reps[1]!.metrics.map((m) => m.key)).toEqual(["score", "gc.alloc.rate.norm"]);
    });

    it("treats rate units of other profilers as higher-is-better and keeps unknown units", () => {
      const entry = base();
      entry.secondaryMetrics = { "custom.rate": { scoreUnit: "ops/s", rawData: [[1], [2]] }, "L1-dcache-loads": { scoreUnit: "#/op", rawData: [[5], [6]] } };
      const metrics = importJmh(JSON.stringify([entry])).benchmarks[0]!.repetitions[1]!.metrics;
      expect(metric(metrics, "custom.rate")).toMatchObject({ unit: "ops/s", direction: "higher_is_better", samples: [2] });
      expect(metric(metrics, "L1-dcache-loads")).toMatchObject({ unit: "#/op", direction: "lower_is_better", samples: [6] });
    });

    it("adds a mode param when one method ran in two modes", () => {
      const avgt = base();
      const thrpt = { ...base(), mode: "thrpt", primaryMetric: { ...base().primaryMetric, scoreUnit: "ops/us" } };
      const result = importJmh(JSON.stringify([avgt, thrpt]));
      expect(result.benchmarks.map((b) => b.params)).toEqual([
        { size: "16", mode: "avgt" },
        { size: "16", mode: "thrpt" },
      ]);
      expect(result.benchmarks[1]!.repetitions[0]!.metrics[0]).toMatchObject({ unit: "ops/us", direction: "higher_is_better" });
    });

    it("accepts a benchmark without @Param and a run with -f 0 (one rawData row)", () => {
      const entry = base();
      delete entry.params;
      entry.primaryMetric = { ...entry.primaryMetric, scoreUnit: "s/op", rawData: [[1.5, 2.5]] };
      const result = importJmh(JSON.stringify([entry]));
      expect(result.benchmarks[0]!.params).toBeUndefined();
      expect(result.benchmarks[0]!.repetitions).toHaveLength(1);
      expect(result.benchmarks[0]!.repetitions[0]!.metrics[0]).toMatchObject({ unit: "s", samples: [1.5, 2.5] });
    });
  });

  describe("rejects what is not JMH JSON", () => {
    const rejects = (body: string, message: RegExp | string) => {
      expect(() => importJmh(body)).toThrow(ImportFormatError);
      expect(() => importJmh(body)).toThrow(message);
    };
    const entry = () => JSON.parse(fixture("params-gc.json"))[0] as { primaryMetric: Record<string, unknown>; mode: string };

    it("an empty body", () => rejects("  \n", "the body is empty"));
    it("malformed JSON", () => rejects('[{"benchmark": "x",', "malformed JSON"));
    it("text", () => rejects("Benchmark  Mode  Cnt  Score", "expected a JSON document"));
    it("an empty array", () => rejects("[]", "holds no benchmark results"));
    it("a hyperfine file", () => {
      const body = JSON.stringify({ results: [{ command: "sleep 1", mean: 1, times: [1] }] });
      rejects(body, 'expected a JSON array of JMH results with "benchmark" and "primaryMetric"');
      rejects(body, "this looks like hyperfine JSON");
    });
    it("an array of something else", () => rejects('[{"name": "x"}]', /benchmark: .*expected string/));
    it("an unknown mode", () => rejects(JSON.stringify([{ ...entry(), mode: "fast" }]), /mode/));
    it("a NaN score in rawData", () =>
      rejects(
        JSON.stringify([{ ...entry(), primaryMetric: { ...entry().primaryMetric, rawData: [[1, "NaN"]] } }]),
        'rawData[1] is "NaN", not a finite number',
      ));
    it("a fork without scores", () =>
      rejects(JSON.stringify([{ ...entry(), primaryMetric: { ...entry().primaryMetric, rawData: [[1], []] } }]), "has a fork without iteration scores"));
    it("a negative score", () => rejects(JSON.stringify([{ ...entry(), primaryMetric: { ...entry().primaryMetric, rawData: [[1, -2]] } }]), "is negative"));
    it("neither rawData nor rawDataHistogram", () => {
      const { rawData: _rawData, ...primary } = entry().primaryMetric;
      rejects(JSON.stringify([{ ...entry(), primaryMetric: primary }]), "has no per-fork data");
    });
    it("a histogram with a negative count", () => {
      rejects(
        JSON.stringify([{ ...entry(), mode: "sample", primaryMetric: { score: 1, scoreUnit: "us/op", rawDataHistogram: [[[[1, -3]]]] } }]),
        /rawDataHistogram/,
      );
    });
    it("a histogram with no samples", () => {
      rejects(
        JSON.stringify([{ ...entry(), mode: "sample", primaryMetric: { score: 1, scoreUnit: "us/op", rawDataHistogram: [[[[1, 0]]]] } }]),
        "empty rawDataHistogram",
      );
    });

    it("every other tool's fixture", () => {
      for (const { relative, body } of foreignFixtures("jmh")) expect(() => importJmh(body), relative).toThrow(ImportFormatError);
    });
  });
});
