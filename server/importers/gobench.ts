// Importer for `go test -bench` output, in the text format benchstat reads (also accepted as
// `go test -json` events, whose Output fields concatenate to that text). Per the Go benchmark
// format (golang.org/x/perf/benchfmt):
//
//   goos: linux                  configuration lines ("key: value", key lower case) apply to the
//   pkg: example.com/codec       results below them; keys the same for every result go to the
//                                file's environment, the rest (e.g. pkg when there are several)
//                                to each repetition's
//   BenchmarkEncode/size=1KB-8   1000000   1043 ns/op   981.92 MB/s   0 B/op   0 allocs/op
//
// Each result line is one repetition (-count N prints N lines) of benchmark "BenchmarkEncode/
// size=1KB"; the "-8" GOMAXPROCS suffix becomes param "procs" and key=value segments of the
// sub-benchmark path become params too. Each value/unit pair is a metric keyed by Go's unit
// ("ns/op", "B/op", "allocs/op", "MB/s" or a b.ReportMetric unit), with the unit normalised
// (ns/op → "ns", B/op → "B", allocs/op → "count", others as printed) and summary {n: the line's
// iteration count, mean: the value}; a rate ("MB/s", any unit ending in "/s") is the run's value. Direction follows benchstat: units ending in "/s" are
// throughput, higher is better; everything else lower.
//
// A FAIL line means the run failed: the whole body is rejected rather than half imported.
import { firstLine, foreignHint, requireText } from "./body-checks";
import { parseDecimal, requireCount, requireNonNegative } from "./numeric-cells";
import type { ImportedBenchmark, ImportedMetric, Importer } from "./types";
import { ImportFormatError } from "./types";

const FORMAT = "gobench";

// benchfmt: a name is "Benchmark" not followed by a lower-case letter, then the iteration count.
const RESULT_LINE = /^(Benchmark(?![a-z])\S*)\s+(\d+)\s+(\S.*)$/;
// benchfmt: a key starts with a lower-case letter and has no spaces or upper-case letters.
const CONFIG_LINE = /^([a-z][^\sA-Z:]*):(?:\s+(.*))?$/;
const FAIL_LINE = /^(FAIL(\s|$)|\s*--- FAIL:|panic: )/;
const PROCS_SUFFIX = /^(.+)-(\d+)$/;
const UNITS: Record<string, string> = { "ns/op": "ns", "B/op": "B", "allocs/op": "count" };
// Go's own columns can never be negative; a custom b.ReportMetric unit may be.
const NON_NEGATIVE = new Set(["ns/op", "B/op", "allocs/op", "MB/s"]);

interface ResultLine {
  name: string;
  procs?: string;
  config: Record<string, string>;
  metrics: ImportedMetric[];
}

export const importGobench: Importer = (body) => {
  const text = requireText(FORMAT, body);
  const results = parseText(looksLikeTest2Json(text) ? test2JsonOutput(text) : text, body);
  const shared = sharedConfig(results);
  return { format: FORMAT, benchmarks: groupBenchmarks(results, shared), environment: shared };
};

function parseText(text: string, body: string): ResultLine[] {
  const results: ResultLine[] = [];
  let config: Record<string, string> = {};
  text.split(/\r?\n/).forEach((line, index) => {
    const where = `line ${index + 1}`;
    if (FAIL_LINE.test(line)) throw new ImportFormatError(FORMAT, `the benchmark run failed (${where}: "${line.trim()}")`);
    const result = RESULT_LINE.exec(line);
    if (result) {
      results.push(parseResult(result[1]!, result[2]!, result[3]!, config, where));
      return;
    }
    const setting = CONFIG_LINE.exec(line);
    if (setting) config = { ...config, [setting[1]!]: (setting[2] ?? "").trim() };
    // Anything else (PASS, ok, --- BENCH:, b.Log output, === RUN) carries no numbers.
  });
  if (results.length === 0) {
    throw new ImportFormatError(
      FORMAT,
      `no benchmark result lines (like "BenchmarkName-8  1000  123 ns/op"); the body starts with "${firstLine(text)}"${foreignHint(body)}`,
    );
  }
  return results;
}

function parseResult(fullName: string, iterationText: string, rest: string, config: Record<string, string>, where: string): ResultLine {
  const n = requireCount(FORMAT, Number(iterationText), "iteration count", where, iterationText);
  if (n < 1) throw new ImportFormatError(FORMAT, `iteration count ${iterationText} is not a positive whole number, at ${where}`);
  const fields = rest.trim().split(/\s+/);
  if (fields.length % 2 !== 0) throw new ImportFormatError(FORMAT, `expected value/unit pairs after the iteration count, at ${where}: "${rest.trim()}"`);

  const metrics: ImportedMetric[] = [];
  for (let i = 0; i < fields.length; i += 2) {
    const unit = fields[i + 1]!;
    const value = parseDecimal(FORMAT, fields[i]!, `${where}, ${unit}`);
    if (NON_NEGATIVE.has(unit)) requireNonNegative(FORMAT, value, unit, where);
    // A rate (MB/s) is the whole line's bytes ÷ its time: the run's value, not a mean of n
    // per-iteration rates. Per-op figures are the mean over the line's n iterations.
    const rate = unit.endsWith("/s");
    metrics.push({
      key: unit,
      unit: UNITS[unit] ?? unit,
      direction: rate ? "higher_is_better" : "lower_is_better",
      ...(rate ? { value } : { summary: { n, mean: value } }),
    });
  }
  const procs = PROCS_SUFFIX.exec(fullName);
  return { name: procs ? procs[1]! : fullName, procs: procs?.[2], config, metrics };
}

/** Lines of one benchmark (same package, name and GOMAXPROCS) become its repetitions, in order. */
function groupBenchmarks(results: ResultLine[], shared: Record<string, string>): ImportedBenchmark[] {
  const groups = new Map<string, { benchmark: ImportedBenchmark; pkg: string | undefined }>();
  for (const result of results) {
    const id = JSON.stringify([result.config.pkg, result.name, result.procs]);
    let group = groups.get(id);
    if (!group) {
      group = { benchmark: { name: result.name, params: nameParams(result), repetitions: [] }, pkg: result.config.pkg };
      groups.set(id, group);
    }
    const own = Object.fromEntries(Object.entries(result.config).filter(([key]) => !(key in shared)));
    group.benchmark.repetitions.push({ metrics: result.metrics, environment: Object.keys(own).length > 0 ? own : undefined });
  }
  // The same benchmark name in two packages would otherwise look like one benchmark.
  const all = [...groups.values()];
  for (const { benchmark, pkg } of all) {
    const twins = all.filter((other) => other.benchmark.name === benchmark.name && other.benchmark.params?.procs === benchmark.params?.procs);
    if (twins.length > 1 && pkg !== undefined) benchmark.params = { ...benchmark.params, pkg };
  }
  return all.map(({ benchmark }) => benchmark);
}

/** "BenchmarkEncode/codec=hex/size=16" with procs 8 → {codec: "hex", size: "16", procs: "8"}. */
function nameParams(result: ResultLine): Record<string, string> | undefined {
  const params: Record<string, string> = {};
  for (const segment of result.name.split("/").slice(1)) {
    const eq = segment.indexOf("=");
    if (eq > 0) params[segment.slice(0, eq)] = segment.slice(eq + 1);
  }
  if (result.procs !== undefined) params.procs = result.procs;
  return Object.keys(params).length > 0 ? params : undefined;
}

/** Configuration values every result line shares, e.g. goos, goarch, cpu, and pkg if only one. */
function sharedConfig(results: ResultLine[]): Record<string, string> {
  const [first, ...others] = results;
  return Object.fromEntries(Object.entries(first?.config ?? {}).filter(([key, value]) => others.every((r) => r.config[key] === value)));
}

function looksLikeTest2Json(text: string): boolean {
  return /^\s*\{\s*"(Time|Action)"\s*:/.test(text);
}

/** `go test -json`: each package's Output fields, in order, are exactly the text output. */
function test2JsonOutput(text: string): string {
  const outputs = new Map<string, string[]>();
  text.split(/\r?\n/).forEach((line, index) => {
    if (line.trim() === "") return;
    let event: unknown;
    try {
      event = JSON.parse(line);
    } catch {
      throw new ImportFormatError(FORMAT, `line ${index + 1} is not a go test -json event: "${line.slice(0, 60)}"`);
    }
    if (typeof event !== "object" || event === null || typeof (event as { Action?: unknown }).Action !== "string") {
      throw new ImportFormatError(FORMAT, `line ${index + 1} is not a go test -json event (no "Action")`);
    }
    const { Package: pkg, Output: output } = event as { Package?: unknown; Output?: unknown };
    if (typeof output !== "string") return;
    const key = typeof pkg === "string" ? pkg : "";
    const parts = outputs.get(key) ?? [];
    parts.push(output);
    outputs.set(key, parts);
  });
  return [...outputs.values()].map((parts) => parts.join("")).join("\n");
}
