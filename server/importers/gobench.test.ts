import { describe, expect, it } from "vitest";
import { foreignFixtures, readFixture } from "./fixture-files";
import { importGobench } from "./gobench";
import { uploadProblems } from "./result-checks";
import { ImportFormatError } from "./types";

const fixture = (name: string) => readFixture(`gobench/${name}`);

/** The fixture's result lines split the plain way: name, iterations, then value/unit pairs. */
function printedLines(text: string) {
  return text
    .split("\n")
    .filter((line) => /^Benchmark\S+\s+\d+\s/.test(line))
    .map((line) => {
      const [name, n, ...pairs] = line.trim().split(/\s+/);
      const values: [string, number][] = [];
      for (let i = 0; i < pairs.length; i += 2) values.push([pairs[i + 1]!, Number(pairs[i])]);
      return { name: name!, n: Number(n), values };
    });
}

describe("importGobench", () => {
  it.each(["go-test-bench.txt", "go-test-bench.json"])("%s imports into runs the upload accepts", (name) => {
    expect(uploadProblems(importGobench(fixture(name)))).toEqual([]);
  });

  describe("go-test-bench.txt (go test -bench . -benchmem -count 5 ./..., two packages)", () => {
    const text = fixture("go-test-bench.txt");
    const result = importGobench(text);

    it("groups -count rounds into repetitions of one benchmark per name", () => {
      expect(result.format).toBe("gobench");
      expect(result.benchmarks.map((b) => [b.name, b.params, b.repetitions.length])).toEqual([
        ["BenchmarkEncode/codec=hex/size=16", { codec: "hex", size: "16", procs: "2" }, 5],
        ["BenchmarkEncode/codec=hex/size=1024", { codec: "hex", size: "1024", procs: "2" }, 5],
        ["BenchmarkEncode/codec=fmt/size=16", { codec: "fmt", size: "16", procs: "2" }, 5],
        ["BenchmarkEncode/codec=fmt/size=1024", { codec: "fmt", size: "1024", procs: "2" }, 5],
        ["BenchmarkSortInts", { procs: "2" }, 5],
        ["BenchmarkFNV64a", { procs: "2" }, 5],
      ]);
    });

    it("keeps every value/unit pair of the first line as printed", () => {
      // BenchmarkEncode/codec=hex/size=16-2  57340452  37.06 ns/op  431.69 MB/s  0 B/op  0 allocs/op
      expect(result.benchmarks[0]!.repetitions[0]!.metrics).toEqual([
        { key: "ns/op", unit: "ns", direction: "lower_is_better", summary: { n: 57340452, mean: 37.06 } },
        // A rate is the line's value: bytes ÷ time over all iterations, not a mean of n rates.
        { key: "MB/s", unit: "MB/s", direction: "higher_is_better", value: 431.69 },
        { key: "B/op", unit: "B", direction: "lower_is_better", summary: { n: 57340452, mean: 0 } },
        { key: "allocs/op", unit: "count", direction: "lower_is_better", summary: { n: 57340452, mean: 0 } },
      ]);
    });

    it("keeps a b.ReportMetric unit as key and unit", () => {
      // BenchmarkSortInts-2  1000000  1251 ns/op  36.00 compares/op  136 B/op  3 allocs/op
      const third = result.benchmarks[4]!.repetitions[2]!.metrics;
      expect(third.map((m) => [m.key, m.unit, m.direction, m.summary])).toEqual([
        ["ns/op", "ns", "lower_is_better", { n: 1000000, mean: 1251 }],
        ["compares/op", "compares/op", "lower_is_better", { n: 1000000, mean: 36 }],
        ["B/op", "B", "lower_is_better", { n: 1000000, mean: 136 }],
        ["allocs/op", "count", "lower_is_better", { n: 1000000, mean: 3 }],
      ]);
    });

    it("matches every printed line, in order", () => {
      const lines = printedLines(text);
      expect(lines).toHaveLength(30);
      const imported = result.benchmarks.flatMap((b) =>
        b.repetitions.map((r) => ({
          name: `${b.name}-${b.params!.procs}`,
          n: r.metrics[0]!.summary!.n,
          values: r.metrics.map((m) => [m.key, m.value ?? m.summary!.mean]),
        })),
      );
      expect(imported).toEqual(lines);
    });

    it("puts shared configuration in the file's environment and the package per repetition", () => {
      expect(result.environment).toEqual({ goos: "linux", goarch: "amd64", cpu: "AMD EPYC" });
      expect(result.benchmarks[0]!.repetitions[0]!.environment).toEqual({ pkg: "versus.example/fixture/codec" });
      expect(result.benchmarks[5]!.repetitions[4]!.environment).toEqual({ pkg: "versus.example/fixture/hash" });
    });
  });

  describe("go-test-bench.json (the same run with go test -json)", () => {
    const jsonl = fixture("go-test-bench.json");
    const result = importGobench(jsonl);

    it("reads the text carried in the events' Output fields", () => {
      const byPackage = new Map<string, string>();
      for (const line of jsonl.split("\n").filter(Boolean)) {
        const event = JSON.parse(line) as { Package?: string; Output?: string };
        if (event.Output !== undefined) byPackage.set(event.Package ?? "", (byPackage.get(event.Package ?? "") ?? "") + event.Output);
      }
      const text = [...byPackage.values()].join("\n");
      expect(result).toEqual(importGobench(text));
      expect(printedLines(text)).toHaveLength(30);
    });

    it("has the values go test printed", () => {
      expect(result.benchmarks.map((b) => b.repetitions.length)).toEqual([5, 5, 5, 5, 5, 5]);
      // "BenchmarkEncode/codec=hex/size=16-2 \t49609104\t        20.37 ns/op\t 785.44 MB/s…", split over two events
      expect(result.benchmarks[0]!.repetitions[0]!.metrics.slice(0, 2).map((m) => m.summary ?? m.value)).toEqual([{ n: 49609104, mean: 20.37 }, 785.44]);
      expect(result.environment).toEqual({ goos: "linux", goarch: "amd64", cpu: "AMD EPYC" });
    });
  });

  describe("other shapes of go test output", () => {
    const header = "goos: linux\ngoarch: arm64\npkg: example.com/a\n";

    it("one package: pkg belongs to the file", () => {
      const result = importGobench(`${header}BenchmarkX-4   100   5.5 ns/op\nPASS\nok  \texample.com/a\t0.1s\n`);
      expect(result.environment).toEqual({ goos: "linux", goarch: "arm64", pkg: "example.com/a" });
      expect(result.benchmarks[0]!.repetitions[0]!.environment).toBeUndefined();
    });

    it("without a GOMAXPROCS suffix (GOMAXPROCS=1) there is no procs param; -cpu 1,4 gives two benchmarks", () => {
      const result = importGobench(`${header}BenchmarkX   100   5.5 ns/op\nBenchmarkX-4   100   2.5 ns/op\n`);
      expect(result.benchmarks.map((b) => [b.name, b.params])).toEqual([
        ["BenchmarkX", undefined],
        ["BenchmarkX", { procs: "4" }],
      ]);
    });

    it("the same benchmark name in two packages gets a pkg param", () => {
      const body = `${header}BenchmarkX-4 100 5 ns/op\npkg: example.com/b\nBenchmarkX-4 100 6 ns/op\n`;
      expect(importGobench(body).benchmarks.map((b) => b.params)).toEqual([
        { procs: "4", pkg: "example.com/a" },
        { procs: "4", pkg: "example.com/b" },
      ]);
    });

    it("a custom unit ending in /s is throughput (higher is better), as in benchstat; negative custom values are allowed", () => {
      const metrics = importGobench("BenchmarkX-4 10 1e3 ns/op 12.5 frames/s -3 delta/op\n").benchmarks[0]!.repetitions[0]!.metrics;
      expect(metrics.map((m) => [m.key, m.unit, m.direction, m.value ?? m.summary!.mean])).toEqual([
        ["ns/op", "ns", "lower_is_better", 1000],
        ["frames/s", "frames/s", "higher_is_better", 12.5],
        ["delta/op", "delta/op", "lower_is_better", -3],
      ]);
    });

    it("ignores log output, --- BENCH blocks and lines that only name a benchmark", () => {
      const body = "=== RUN   BenchmarkX\nBenchmarkX\n    x_test.go:9: hello: world\n--- BENCH: BenchmarkX-4\nBenchmarkX-4 10 7 ns/op\nBenchmarking is fun\n";
      const result = importGobench(body);
      expect(result.benchmarks).toHaveLength(1);
      expect(result.environment).toEqual({});
    });
  });

  describe("rejects what is not a successful go test -bench run", () => {
    const rejects = (body: string, message: RegExp | string) => {
      expect(() => importGobench(body)).toThrow(ImportFormatError);
      expect(() => importGobench(body)).toThrow(message);
    };

    it("an empty body", () => rejects("", "the body is empty"));
    it("wrk output", () =>
      rejects(
        "Running 2s test @ http://127.0.0.1:8080/\n  2 threads and 10 connections\nRequests/sec:  10659.90\n",
        /no benchmark result lines .*this looks like wrk/,
      ));
    it("a JSON document", () => rejects(readFixture("jmh/params-gc.json"), "no benchmark result lines"));
    it("a FAIL line", () => rejects("BenchmarkX-4 10 7 ns/op\nFAIL\texample.com/a\t0.1s\n", 'the benchmark run failed (line 2: "FAIL\texample.com/a\t0.1s")'));
    it("a failed sub-benchmark", () => rejects("BenchmarkX-4 10 7 ns/op\n    --- FAIL: BenchmarkX/y-4\n", "the benchmark run failed"));
    it("a panic", () => rejects("BenchmarkX-4 10 7 ns/op\npanic: runtime error: index out of range\n", "the benchmark run failed"));
    it("NaN", () => rejects("BenchmarkX-4 10 NaN ns/op\n", "NaN is not a finite number, at line 1, ns/op"));
    it("Infinity", () => rejects("BenchmarkX-4 10 7 ns/op +Inf x/op\n", "not a finite number"));
    it("a non-numeric value", () => rejects("BenchmarkX-4 10 7ms ns/op\n", 'non-numeric value "7ms"'));
    it("a negative time", () => rejects("BenchmarkX-4 10 -7 ns/op\n", "negative ns/op (-7) at line 1"));
    it("a negative allocation count", () => rejects("BenchmarkX-4 10 7 ns/op -1 allocs/op\n", "negative allocs/op"));
    it("a zero iteration count", () => rejects("BenchmarkX-4 0 7 ns/op\n", "iteration count 0 is not a positive whole number"));
    it("a value without a unit", () => rejects("BenchmarkX-4 10 7 ns/op 8\n", "expected value/unit pairs"));
    it("a broken go test -json line", () =>
      rejects('{"Action":"output","Output":"BenchmarkX-4 10 7 ns/op\\n"}\n{"Action":\n', "line 2 is not a go test -json event"));

    it("every other tool's fixture", () => {
      for (const { relative, body } of foreignFixtures("gobench")) expect(() => importGobench(body), relative).toThrow(ImportFormatError);
    });
  });
});
