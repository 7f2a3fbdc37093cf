// The tool formats POST /api/v1/imports and `versus import` understand.
import { importCriterion } from "./criterion";
import { importCsv } from "./csv";
import { importGobench } from "./gobench";
import { importGoogleBenchmark } from "./google-benchmark";
import { importHyperfine } from "./hyperfine";
import { importJmh } from "./jmh";
import { importK6 } from "./k6";
import { importNgrinder } from "./ngrinder";
import { importPytestBenchmark } from "./pytest-benchmark";
import type { Importer } from "./types";
import { importWrk } from "./wrk";

export const importers = {
  jmh: { importer: importJmh, description: "JMH JSON (-rf json), with rawData per fork" },
  gobench: { importer: importGobench, description: "`go test -bench` text output; -count repetitions become runs" },
  hyperfine: { importer: importHyperfine, description: "hyperfine --export-json, with per-run times" },
  "pytest-benchmark": { importer: importPytestBenchmark, description: "pytest-benchmark --benchmark-json" },
  "google-benchmark": { importer: importGoogleBenchmark, description: "Google Benchmark --benchmark_format=json; repetitions become runs" },
  criterion: { importer: importCriterion, description: "Criterion.rs sample.json, or a bundle of each benchmark's sample/estimates/benchmark JSON (docs/imports.md)" },
  k6: { importer: importK6, description: "k6 --summary-export JSON, or --out csv samples" },
  wrk: { importer: importWrk, description: "wrk text output, run with --latency" },
  ngrinder: { importer: importNgrinder, description: "nGrinder CSV report" },
  csv: { importer: importCsv, description: "generic CSV: a column per metric, a row per run" },
} satisfies Record<string, { importer: Importer; description: string }>;

export type ImportFormat = keyof typeof importers;
export const importFormats = Object.keys(importers) as ImportFormat[];
