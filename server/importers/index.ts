// The parser of each import format (the names and descriptions: server/schemas/import-formats.ts).
import { importCriterion } from "./criterion";
import { importCsv } from "./csv";
import { importGobench } from "./gobench";
import { importGoogleBenchmark } from "./google-benchmark";
import { importHyperfine } from "./hyperfine";
import { importJmh } from "./jmh";
import { importK6 } from "./k6";
import { importNgrinder } from "./ngrinder";
import { importPytestBenchmark } from "./pytest-benchmark";
import type { ImportFormat } from "../schemas/import-formats";
import type { Importer } from "./types";
import { importWrk } from "./wrk";

export const importers: Record<ImportFormat, Importer> = {
  jmh: importJmh,
  gobench: importGobench,
  hyperfine: importHyperfine,
  "pytest-benchmark": importPytestBenchmark,
  "google-benchmark": importGoogleBenchmark,
  criterion: importCriterion,
  k6: importK6,
  wrk: importWrk,
  ngrinder: importNgrinder,
  csv: importCsv,
};
