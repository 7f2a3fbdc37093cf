// Importer for pytest-benchmark JSON: the `--benchmark-json` file, or a file `--benchmark-save`
// wrote into .benchmarks/ (same shape). One benchmark per entry in "benchmarks", one repetition
// each (a pytest session measures each test once, in many rounds):
//
//   time   s, lower: stats.data as samples when present — every round's time per call
//          (--benchmark-json always writes it; saved files only with --benchmark-save-data) —
//          and always the tool's summary: rounds, mean, stddev, min, max, median.
//
// "ops" (1 / mean) is left out: it is derived from the time, and a mean of ops is not it.
// Params come from "params" (values stringified); the name is "name", e.g. "test_sort[16]",
// or "fullname" ("tests/test_x.py::test_sort[16]") when two modules use the same name.
// Environment: machine_info (without the CPU flag list), commit_info, datetime and version.
import { z } from "zod";
import { describeIssues, foreignHint, parseJsonBody } from "./body-checks";
import type { ImportedBenchmark, Importer } from "./types";
import { ImportFormatError } from "./types";

const FORMAT = "pytest-benchmark";
const EXPECTED = 'a pytest-benchmark JSON object with "benchmarks" (each with "name" and "stats")';

const seconds = z.number().nonnegative();
const ZStats = z.object({
  min: seconds,
  max: seconds,
  mean: seconds,
  stddev: seconds,
  median: seconds,
  rounds: z.number().int().min(1),
  iterations: z.number().int().min(1).optional(),
  data: z.array(seconds).optional(),
});

const ZBenchmark = z.object({
  group: z.string().nullable().optional(),
  name: z.string().min(1),
  fullname: z.string().optional(),
  params: z.record(z.string(), z.unknown()).nullable().optional(),
  extra_info: z.record(z.string(), z.unknown()).optional(),
  options: z.record(z.string(), z.unknown()).optional(),
  stats: ZStats,
});
type PytestBenchmark = z.infer<typeof ZBenchmark>;

const ZFile = z.object({
  machine_info: z.record(z.string(), z.unknown()).optional(),
  commit_info: z.record(z.string(), z.unknown()).optional(),
  benchmarks: z.array(ZBenchmark),
  datetime: z.string().optional(),
  version: z.string().optional(),
});

export const importPytestBenchmark: Importer = (body) => {
  const parsed = ZFile.safeParse(parseJsonBody(FORMAT, body));
  if (!parsed.success) throw new ImportFormatError(FORMAT, `expected ${EXPECTED}${foreignHint(body)}: ${describeIssues(parsed.error)}`);
  const file = parsed.data;
  if (file.benchmarks.length === 0) throw new ImportFormatError(FORMAT, '"benchmarks" is empty: no benchmark ran');

  const nameCounts = new Map<string, number>();
  for (const b of file.benchmarks) nameCounts.set(b.name, (nameCounts.get(b.name) ?? 0) + 1);
  return {
    format: FORMAT,
    benchmarks: file.benchmarks.map((b, index) => toBenchmark(b, index, (nameCounts.get(b.name) ?? 0) > 1)),
    environment: defined({
      machine_info: file.machine_info && withoutCpuFlags(file.machine_info),
      commit_info: file.commit_info,
      datetime: file.datetime,
      "pytest-benchmark": file.version,
    }),
  };
};

function toBenchmark(b: PytestBenchmark, index: number, ambiguous: boolean): ImportedBenchmark {
  const { stats } = b;
  if (stats.data && stats.data.length !== stats.rounds) {
    throw new ImportFormatError(FORMAT, `benchmarks[${index}] ("${b.name}") has ${stats.data.length} values in stats.data but stats.rounds is ${stats.rounds}`);
  }
  const params = Object.fromEntries(Object.entries(b.params ?? {}).map(([key, value]) => [key, paramText(value)]));
  return {
    name: ambiguous && b.fullname ? b.fullname : b.name,
    params: Object.keys(params).length > 0 ? params : undefined,
    repetitions: [
      {
        metrics: [
          {
            key: "time",
            unit: "s",
            direction: "lower_is_better",
            label: "Time per call",
            samples: stats.data && stats.data.length > 0 ? stats.data : undefined,
            summary: { n: stats.rounds, mean: stats.mean, sd: stats.stddev, min: stats.min, max: stats.max, p50: stats.median },
          },
        ],
        environment: defined({
          group: b.group ?? undefined,
          iterations: stats.iterations,
          options: b.options,
          extra_info: b.extra_info && Object.keys(b.extra_info).length > 0 ? b.extra_info : undefined,
        }),
      },
    ],
  };
}

/** Params are whatever pytest.mark.parametrize was given: strings and numbers as printed, the rest as JSON. */
function paramText(value: unknown): string {
  return typeof value === "string" ? value : typeof value === "number" || typeof value === "boolean" || value === null ? String(value) : JSON.stringify(value);
}

/** The CPU flag list is ~100 entries of noise for comparing runs; everything else is kept. */
function withoutCpuFlags(machine: Record<string, unknown>): Record<string, unknown> {
  const cpu = machine.cpu;
  if (typeof cpu !== "object" || cpu === null || !("flags" in cpu)) return machine;
  const { flags: _flags, ...rest } = cpu as Record<string, unknown>;
  return { ...machine, cpu: rest };
}

function defined(record: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined));
}
