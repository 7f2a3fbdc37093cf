// The benchmark-tool formats POST /api/v1/imports and `versus import` understand, by name only:
// the query schema, the CLI, the OpenAPI document and the pages list them without loading the
// parsers (server/importers/index.ts maps each name to its parser).

export const importFormatDescriptions = {
  jmh: "JMH JSON (-rf json), with rawData per fork",
  gobench: "`go test -bench` text output; -count repetitions become runs",
  hyperfine: "hyperfine --export-json, with per-run times",
  "pytest-benchmark": "pytest-benchmark --benchmark-json",
  "google-benchmark": "Google Benchmark --benchmark_format=json; repetitions become runs",
  criterion: "Criterion.rs sample.json, or a bundle of each benchmark's sample/estimates/benchmark JSON (docs/imports.md)",
  k6: "k6 --summary-export JSON, or --out csv samples",
  wrk: "wrk text output, run with --latency",
  ngrinder: "nGrinder CSV report",
  csv: "generic CSV: a column per metric, a row per run",
} as const;

export type ImportFormat = keyof typeof importFormatDescriptions;
export const importFormats = Object.keys(importFormatDescriptions) as [ImportFormat, ...ImportFormat[]];
