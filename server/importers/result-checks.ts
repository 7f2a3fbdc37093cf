// Test support: what an ImportResult must satisfy to be uploaded as runs (the limits of
// server/schemas/results.ts restated here, and its summary rules, so importer tests catch a value
// the upload would refuse without going through the upload). Returns the problems found; [] means none.
import { summaryContradictions } from "../schemas/summary-rules";
import { ImportFormatError, type ImportedMetric, type Importer, type ImportResult } from "./types";

const ISO_WITH_ZONE = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/;

function metricProblems(metric: ImportedMetric, where: string): string[] {
  const problems: string[] = [];
  const finite = (v: unknown) => typeof v === "number" && Number.isFinite(v);
  if (metric.key.trim() === "" || metric.key.length > 200) problems.push(`${where}: bad key "${metric.key}"`);
  if (metric.unit.trim() === "" || metric.unit.length > 32) problems.push(`${where}: unit must be 1-32 characters`);
  if (metric.label !== undefined && metric.label.length > 100) problems.push(`${where}: label over 100 characters`);
  if (metric.samples !== undefined && (metric.samples.length === 0 || !metric.samples.every(finite))) problems.push(`${where}: samples empty or not finite`);
  const s = metric.summary;
  if (!s && !metric.samples && !metric.timeSeries && metric.value === undefined) problems.push(`${where}: neither samples, summary, time series nor value`);
  if (metric.value !== undefined && !finite(metric.value)) problems.push(`${where}: value not finite`);
  if (s) {
    if (!Number.isInteger(s.n) || s.n < 1) problems.push(`${where}: summary.n ${s.n} is not a whole number ≥ 1`);
    for (const [field, value] of Object.entries(s)) if (value !== undefined && !finite(value)) problems.push(`${where}: summary.${field} not finite`);
    if (s.sd !== undefined && s.sd < 0) problems.push(`${where}: negative sd`);
    // The summary is stored only without samples; then it must describe one set of values.
    if (!metric.samples) for (const issue of summaryContradictions(s)) problems.push(`${where}: summary.${issue.field}: ${issue.message}`);
  }
  const t = metric.timeSeries;
  if (t) {
    if (t.values.length === 0 || t.values.length !== t.offsetsMs.length) problems.push(`${where}: time series lengths`);
    if (!t.values.every(finite) || !t.offsetsMs.every((o) => finite(o) && o >= 0)) problems.push(`${where}: time series values`);
  }
  return problems;
}

export function uploadProblems(result: ImportResult): string[] {
  const problems: string[] = [];
  if (result.benchmarks.length === 0) problems.push("no benchmarks");
  for (const benchmark of result.benchmarks) {
    if (benchmark.name.trim() === "") problems.push("empty benchmark name");
    if (benchmark.repetitions.length === 0) problems.push(`${benchmark.name}: no repetitions`);
    benchmark.repetitions.forEach((repetition, r) => {
      const where = `${benchmark.name}#${r}`;
      if (repetition.metrics.length === 0) problems.push(`${where}: no metrics`);
      if (repetition.startedAt !== undefined && !ISO_WITH_ZONE.test(repetition.startedAt))
        problems.push(`${where}: startedAt ${repetition.startedAt} lacks a zone`);
      const keys = new Set<string>();
      for (const metric of repetition.metrics) {
        if (keys.has(metric.key)) problems.push(`${where}: metric ${metric.key} twice`);
        keys.add(metric.key);
        problems.push(...metricProblems(metric, `${where}.${metric.key}`));
      }
    });
  }
  return problems;
}

/** Test helper: a metric of one benchmark's repetition, or an error naming the missing key. */
export function metricOf(result: ImportResult, key: string, benchmark = 0, repetition = 0): ImportedMetric {
  const found = result.benchmarks[benchmark]?.repetitions[repetition]?.metrics.find((m) => m.key === key);
  if (!found) throw new Error(`no metric ${key}`);
  return found;
}

/** Test helper: the message an importer refuses `body` with; fails if it accepts it. */
export function refusalOf(importer: Importer, body: string): string {
  try {
    importer(body);
  } catch (error) {
    if (error instanceof ImportFormatError) return error.message;
    throw error;
  }
  throw new Error("expected an ImportFormatError");
}
