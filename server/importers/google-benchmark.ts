// Importer for Google Benchmark's JSON (`--benchmark_format=json` or `--benchmark_out=…
// --benchmark_out_format=json`). Rows with run_type "iteration" are grouped by run_name; each
// row is one repetition (--benchmark_repetitions), ordered by repetition_index. Aggregate rows
// (mean, median, stddev, cv, BigO, RMS) are computed from those and are ignored.
//
// Each row holds one number per metric, averaged over the row's `iterations`, so a metric is a
// summary {n: iterations, mean: value}; a rate (a counter named *per_second) is the run's value:
//   real_time, cpu_time   in the row's time_unit (ns, us, ms, s), lower is better
//   bytes_per_second      B/s, higher (SetBytesProcessed), the run's value
//   items_per_second      items/s, higher (SetItemsProcessed), the run's value
//   other counters        unit "count"; higher is better only for names ending in "per_second"
//                         (the JSON does not carry a counter's flags, so kIsRate is invisible)
//   allocs_per_iter, max_bytes_used   from a registered MemoryManager: count and B, lower
// Rows that report an error (SkipWithError) or a skip hold no measurement and are left out.
//
// Params: the "name:value" segments of the run name (ArgNames, threads:N, …):
// "BM_Sort/size:1024/threads:2" → {size: "1024", threads: "2"}. Unnamed arguments
// ("BM_Sort/1024") stay in the name only; a made-up "arg0" key would mean nothing.
// Environment: the "context" object as the library wrote it.
import { z } from "zod";
import { describeIssues, foreignHint, parseJsonBody, parseJsonText, requireText } from "./body-checks";
import { countIssue } from "./numeric-cells";
import type { Direction, ImportedBenchmark, ImportedMetric, Importer } from "./types";
import { ImportFormatError } from "./types";

const FORMAT = "google-benchmark";
const EXPECTED = 'a Google Benchmark JSON object with "context" and "benchmarks"';

const ZRow = z.looseObject({
  name: z.string().min(1),
  run_name: z.string().min(1).optional(),
  run_type: z.string().optional(),
  aggregate_name: z.string().optional(),
  error_occurred: z.boolean().optional(),
  skipped: z.boolean().optional(),
});
const ZFile = z.object({ context: z.record(z.string(), z.unknown()), benchmarks: z.array(ZRow) });

// A figure of a measured row; null is what parseLenientJson made of a bare NaN or Infinity.
const figure = z.number({ error: (issue) => (issue.input === null ? "is NaN or Infinity, not a finite number" : "must be a number") });

// What a measured repetition must hold; checked only on iteration rows.
const ZIteration = z.object({
  iterations: figure.int({ error: countIssue }).min(1),
  real_time: figure.nonnegative(),
  cpu_time: figure.nonnegative(),
  time_unit: z.enum(["ns", "us", "ms", "s"]),
  repetition_index: z.number().int().nonnegative().optional(),
  threads: z.number().int().positive().optional(),
  label: z.string().optional(),
});

// Fields the library writes that are not counters.
const NOT_COUNTERS = new Set([
  ...["name", "family_index", "per_family_instance_index", "run_name", "run_type", "repetitions", "repetition_index", "threads"],
  ...["aggregate_name", "aggregate_unit", "error_occurred", "error_message", "skipped", "skip_message", "iterations"],
  ...["real_time", "cpu_time", "time_unit", "label", "cpu_coefficient", "real_coefficient", "big_o", "rms"],
]);
const COUNTER_UNITS: Record<string, string> = { bytes_per_second: "B/s", items_per_second: "items/s", allocs_per_iter: "count", max_bytes_used: "B" };
// The library prints NaN/Infinity bare (not JSON), e.g. the cv aggregate of a counter that is always 0.
const BARE_NON_FINITE = /(:\s*)-?(?:NaN|Infinity)(?=\s*[,}\]])/g;

export const importGoogleBenchmark: Importer = (body) => {
  const parsed = ZFile.safeParse(parseLenientJson(body));
  if (!parsed.success) throw new ImportFormatError(FORMAT, `expected ${EXPECTED}${foreignHint(body)}: ${describeIssues(parsed.error)}`);
  const { context, benchmarks: rows } = parsed.data;

  const groups = new Map<string, { order: number; metrics: ImportedMetric[]; environment: Record<string, unknown> }[]>();
  rows.forEach((row, index) => {
    if (row.run_type === "aggregate" || row.aggregate_name !== undefined || row.error_occurred || row.skipped) return;
    const measured = ZIteration.safeParse(row);
    if (!measured.success) throw new ImportFormatError(FORMAT, `benchmarks[${index}] ("${row.name}") is not a measured run: ${describeIssues(measured.error)}`);
    const run = measured.data;
    const name = row.run_name ?? row.name;
    const repetitions = groups.get(name) ?? [];
    repetitions.push({
      order: run.repetition_index ?? repetitions.length,
      metrics: [
        {
          key: "real_time",
          unit: run.time_unit,
          direction: "lower_is_better",
          label: "Real time per iteration",
          summary: { n: run.iterations, mean: run.real_time },
        },
        {
          key: "cpu_time",
          unit: run.time_unit,
          direction: "lower_is_better",
          label: "CPU time per iteration",
          summary: { n: run.iterations, mean: run.cpu_time },
        },
        ...counters(row, run.iterations),
      ],
      environment: Object.fromEntries(Object.entries({ threads: run.threads, label: run.label }).filter(([, value]) => value !== undefined)),
    });
    groups.set(name, repetitions);
  });

  if (groups.size === 0) {
    const why =
      rows.length === 0
        ? '"benchmarks" is empty'
        : 'no rows with run_type "iteration" (aggregates only, e.g. --benchmark_report_aggregates_only, or every run failed)';
    throw new ImportFormatError(FORMAT, `${why}: nothing to import`);
  }
  const benchmarks: ImportedBenchmark[] = [...groups.entries()].map(([name, repetitions]) => ({
    name,
    params: nameParams(name),
    repetitions: repetitions
      .sort((a, b) => a.order - b.order)
      .map(({ metrics, environment }) => ({ metrics, environment: Object.keys(environment).length > 0 ? environment : undefined })),
  }));
  return { format: FORMAT, benchmarks, environment: context };
};

function counters(row: Record<string, unknown>, iterations: number): ImportedMetric[] {
  const metrics: ImportedMetric[] = [];
  for (const [key, value] of Object.entries(row)) {
    // Non-numbers are not counters; null stands for a NaN/Infinity the library printed.
    if (NOT_COUNTERS.has(key) || typeof value !== "number") continue;
    const direction: Direction = key.endsWith("per_second") ? "higher_is_better" : "lower_is_better";
    // A rate (bytes_per_second…) is the run's total ÷ its time: the run's value, not a mean.
    metrics.push({
      key,
      unit: COUNTER_UNITS[key] ?? "count",
      direction,
      ...(key.endsWith("per_second") ? { value } : { summary: { n: iterations, mean: value } }),
    });
  }
  return metrics;
}

/** "BM_Sort/size:1024/8/real_time/threads:2" → {size: "1024", threads: "2"}. */
function nameParams(name: string): Record<string, string> | undefined {
  const params: Record<string, string> = {};
  for (const segment of name.split("/").slice(1)) {
    const colon = segment.indexOf(":");
    if (colon > 0) params[segment.slice(0, colon)] = segment.slice(colon + 1);
  }
  return Object.keys(params).length > 0 ? params : undefined;
}

/** JSON.parse, and if that fails because of bare NaN/Infinity, again with those as null. */
function parseLenientJson(body: string): unknown {
  const text = requireText(FORMAT, body);
  try {
    return parseJsonBody(FORMAT, text);
  } catch (error) {
    const patched = text.replace(BARE_NON_FINITE, "$1null");
    if (patched === text) throw error;
    try {
      return parseJsonText(FORMAT, patched);
    } catch (retry) {
      // Still not JSON: the first message says why; JSON now, but with a number beyond float64: that.
      throw retry instanceof Error && retry.message.includes("malformed JSON") ? error : retry;
    }
  }
}
