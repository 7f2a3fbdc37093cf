import { describe, expect, it } from "vitest";
import { foreignFixtures, readFixture } from "./fixture-files";
import { importHyperfine } from "./hyperfine";
import { uploadProblems } from "./result-checks";
import type { ImportedMetric } from "./types";
import { ImportFormatError } from "./types";

const fixture = (name: string) => readFixture(`hyperfine/${name}`);
const metric = (metrics: ImportedMetric[], key: string) => metrics.find((m) => m.key === key);
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const sd = (xs: number[]) => Math.sqrt(xs.reduce((a, x) => a + (x - mean(xs)) ** 2, 0) / (xs.length - 1));

interface RawResult {
  command: string;
  mean: number;
  stddev: number;
  median: number;
  user: number;
  system: number;
  min: number;
  max: number;
  times: number[];
  exit_codes: number[];
}

describe("importHyperfine", () => {
  it.each(["two-commands.json", "parameter-list.json", "ignore-failure.json"])("%s imports into runs the upload accepts", (name) => {
    expect(uploadProblems(importHyperfine(fixture(name)))).toEqual([]);
  });

  describe("two-commands.json (--warmup 2 --runs 10, two commands)", () => {
    const result = importHyperfine(fixture("two-commands.json"));
    const raw = (JSON.parse(fixture("two-commands.json")) as { results: RawResult[] }).results;

    it("has one benchmark per command with one repetition", () => {
      expect(result.format).toBe("hyperfine");
      expect(result.benchmarks.map((b) => [b.name, b.params, b.repetitions.length])).toEqual([
        ["seq 1 20000 | sort -n > /dev/null", undefined, 1],
        ["seq 1 20000 | sort -rn > /dev/null", undefined, 1],
      ]);
    });

    it("keeps every run's time as a sample; hyperfine's mean, median and stddev follow from them", () => {
      for (const [i, b] of result.benchmarks.entries()) {
        const wall = metric(b.repetitions[0]!.metrics, "wall_time")!;
        expect(wall).toMatchObject({ unit: "s", direction: "lower_is_better" });
        expect(wall.samples).toEqual(raw[i]!.times);
        expect(wall.samples).toHaveLength(10);
        expect(mean(wall.samples!)).toBeCloseTo(raw[i]!.mean, 15);
        expect(median(wall.samples!)).toBeCloseTo(raw[i]!.median, 15);
        expect(sd(wall.samples!)).toBeCloseTo(raw[i]!.stddev, 15);
        expect(wall.summary).toEqual({ n: 10, mean: raw[i]!.mean, sd: raw[i]!.stddev, min: raw[i]!.min, max: raw[i]!.max, p50: raw[i]!.median });
      }
      // hyperfine printed "Time (mean ± σ): 10.5 ms ± 3.5 ms [User: 5.4 ms, System: 2.0 ms]" for the first.
      expect(metric(result.benchmarks[0]!.repetitions[0]!.metrics, "wall_time")!.summary!.mean).toBe(0.01045602964);
    });

    it("reports mean user and system time, and the exit codes", () => {
      const rep = result.benchmarks[0]!.repetitions[0]!;
      expect(metric(rep.metrics, "user_s")).toEqual({
        key: "user_s",
        unit: "s",
        direction: "lower_is_better",
        label: "User time (mean)",
        summary: { n: 10, mean: 0.0054031 },
      });
      expect(metric(rep.metrics, "system_s")!.summary).toEqual({ n: 10, mean: 0.002006364 });
      expect(metric(rep.metrics, "max_rss")).toBeUndefined(); // hyperfine 1.15 does not measure memory
      expect(rep.environment).toEqual({ exit_codes: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0] });
    });
  });

  it("parameter-list.json (-L n 1000,50000): parameters become params", () => {
    const result = importHyperfine(fixture("parameter-list.json"));
    expect(result.benchmarks.map((b) => [b.name, b.params])).toEqual([
      ["seq 1 1000 | sort -n > /dev/null", { n: "1000" }],
      ["seq 1 50000 | sort -n > /dev/null", { n: "50000" }],
    ]);
    const wall = metric(result.benchmarks[1]!.repetitions[0]!.metrics, "wall_time")!;
    expect(wall.samples).toHaveLength(5);
    expect(mean(wall.samples!)).toBeCloseTo(0.033746602640000005, 15);
  });

  it("ignore-failure.json (--ignore-failure): the non-zero exit codes are kept", () => {
    const result = importHyperfine(fixture("ignore-failure.json"));
    expect(result.benchmarks[0]!.repetitions[0]!.environment).toEqual({ exit_codes: [2, 2, 2, 2, 2] });
  });

  describe("other hyperfine versions and options", () => {
    const one = {
      command: "sleep 0.1",
      mean: 0.1,
      stddev: null,
      median: 0.1,
      user: 0.001,
      system: 0.002,
      min: 0.1,
      max: 0.1,
      times: [0.1],
      exit_codes: [null],
    };

    it("one run: stddev null, an exit code null (killed by a signal)", () => {
      const rep = importHyperfine(JSON.stringify({ results: [one] })).benchmarks[0]!.repetitions[0]!;
      expect(metric(rep.metrics, "wall_time")!.summary).toEqual({ n: 1, mean: 0.1, sd: undefined, min: 0.1, max: 0.1, p50: 0.1 });
      expect(rep.environment).toEqual({ exit_codes: [null] });
    });

    it("memory_usage_byte (hyperfine ≥ 1.19) becomes max_rss in bytes", () => {
      const rep = importHyperfine(JSON.stringify({ results: [{ ...one, memory_usage_byte: [4194304] }] })).benchmarks[0]!.repetitions[0]!;
      expect(metric(rep.metrics, "max_rss")).toEqual({
        key: "max_rss",
        unit: "B",
        direction: "lower_is_better",
        label: "Peak memory (max RSS)",
        samples: [4194304],
      });
    });

    it("without times (older exports): a summary only, n from the exit codes", () => {
      const { times: _times, ...noTimes } = one;
      const wall = metric(
        importHyperfine(JSON.stringify({ results: [{ ...noTimes, exit_codes: [0, 0, 0] }] })).benchmarks[0]!.repetitions[0]!.metrics,
        "wall_time",
      )!;
      expect(wall.samples).toBeUndefined();
      expect(wall.summary!.n).toBe(3);
    });
  });

  describe("rejects what is not hyperfine JSON", () => {
    const rejects = (body: string, message: RegExp | string) => {
      expect(() => importHyperfine(body)).toThrow(ImportFormatError);
      expect(() => importHyperfine(body)).toThrow(message);
    };
    const good = () => (JSON.parse(fixture("two-commands.json")) as { results: Record<string, unknown>[] }).results[0]!;

    it("an empty body", () => rejects("", "the body is empty"));
    it("malformed JSON", () => rejects('{"results": [', "malformed JSON"));
    it("a JMH file", () =>
      rejects(readFixture("jmh/params-gc.json"), /expected a hyperfine --export-json object with "results".*\(this looks like JMH JSON\)/));
    it("no results", () => rejects('{"results": []}', '"results" is empty'));
    it("a negative time", () => rejects(JSON.stringify({ results: [{ ...good(), times: [0.1, -0.2] }] }), /results\.0\.times\.1: .*>=0/));
    it("a time that is not a number", () => rejects(JSON.stringify({ results: [{ ...good(), mean: "NaN" }] }), /results\.0\.mean/));
    it("no runs at all", () => {
      const { times: _times, ...noTimes } = good();
      rejects(JSON.stringify({ results: [{ ...noTimes, exit_codes: [] }] }), "has no runs");
    });
    it("a fractional exit code", () => rejects(JSON.stringify({ results: [{ ...good(), exit_codes: [0.5] }] }), /exit_codes/));

    it("every other tool's fixture", () => {
      for (const { relative, body } of foreignFixtures("hyperfine")) expect(() => importHyperfine(body), relative).toThrow(ImportFormatError);
    });
  });
});
