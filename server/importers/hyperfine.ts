// Importer for hyperfine's `--export-json` file: {"results": [...]}, one result per command (or
// per parameter value with -L / --parameter-scan). hyperfine runs each command `runs` times in one
// session, so each result is one benchmark with one repetition:
//
//   wall_time   s, lower: every run's wall-clock time ("times") as samples, with hyperfine's
//               own mean/stddev/median/min/max as the summary
//   user_s      s, lower: mean user time (hyperfine exports only the mean)
//   system_s    s, lower: mean system time
//   max_rss     B, lower: each run's peak memory ("memory_usage_byte", hyperfine ≥ 1.19)
//
// Params come from "parameters"; exit codes (null when a run was killed by a signal) go into the
// repetition's environment, since a repetition has no status of its own.
import { z } from "zod";
import { describeIssues, foreignHint, parseJsonBody } from "./body-checks";
import type { ImportedMetric, ImportedRepetition, Importer } from "./types";
import { ImportFormatError } from "./types";

const FORMAT = "hyperfine";
const EXPECTED = 'a hyperfine --export-json object with "results" (each with "command", "mean" and "times")';

const seconds = z.number().nonnegative();
const ZResult = z.object({
  command: z.string(),
  mean: seconds,
  // Absent (null) when there was only one run.
  stddev: seconds.nullable().optional(),
  median: seconds,
  user: seconds,
  system: seconds,
  min: seconds,
  max: seconds,
  times: z.array(seconds).min(1).optional(),
  memory_usage_byte: z.array(z.number().int().nonnegative()).min(1).optional(),
  exit_codes: z.array(z.number().int().nullable()),
  parameters: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
});
type HyperfineResult = z.infer<typeof ZResult>;

export const importHyperfine: Importer = (body) => {
  const parsed = z.object({ results: z.array(ZResult) }).safeParse(parseJsonBody(FORMAT, body));
  if (!parsed.success) throw new ImportFormatError(FORMAT, `expected ${EXPECTED}${foreignHint(body)}: ${describeIssues(parsed.error)}`);
  if (parsed.data.results.length === 0) throw new ImportFormatError(FORMAT, '"results" is empty: no command was benchmarked');

  return {
    format: FORMAT,
    benchmarks: parsed.data.results.map((result, index) => {
      const params = Object.fromEntries(Object.entries(result.parameters ?? {}).map(([key, value]) => [key, String(value)]));
      return { name: result.command, params: Object.keys(params).length > 0 ? params : undefined, repetitions: [repetition(result, index)] };
    }),
  };
};

function repetition(result: HyperfineResult, index: number): ImportedRepetition {
  // hyperfine writes one exit code per run; with --export-json that count is the run count.
  const runs = result.times?.length ?? result.exit_codes.length;
  if (runs < 1) throw new ImportFormatError(FORMAT, `results[${index}] ("${result.command}") has no runs`);
  const meanOf = (value: number) => ({ n: runs, mean: value });

  const metrics: ImportedMetric[] = [
    {
      key: "wall_time",
      unit: "s",
      direction: "lower_is_better",
      label: "Wall-clock time",
      samples: result.times,
      summary: { n: runs, mean: result.mean, sd: result.stddev ?? undefined, min: result.min, max: result.max, p50: result.median },
    },
    { key: "user_s", unit: "s", direction: "lower_is_better", label: "User time (mean)", summary: meanOf(result.user) },
    { key: "system_s", unit: "s", direction: "lower_is_better", label: "System time (mean)", summary: meanOf(result.system) },
  ];
  if (result.memory_usage_byte) {
    metrics.push({ key: "max_rss", unit: "B", direction: "lower_is_better", label: "Peak memory (max RSS)", samples: result.memory_usage_byte });
  }
  return { metrics, environment: { exit_codes: result.exit_codes } };
}
