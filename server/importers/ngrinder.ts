// Importer for nGrinder's per-test CSV report (output.csv, "Download CSV" on a test's report).
// Format, from naver/ngrinder ngrinder-core/src/main/java/net/grinder/SingleConsole.java
// (writeIntervalCsvData, formatValue) and .../org/ngrinder/common/util/DateUtils.java:
//   DateTime,vuser,Tests,Errors,Mean_Test_Time_(ms),Test_Time_Standard_Deviation_(ms),TPS,
//   Mean_response_length,Response_bytes_per_second,Response_errors,Mean_time_to_resolve_host,
//   Mean_time_to_establish_connection,Mean_time_to_first_byte[,Description,Tests-1,…,Description,Tests-2,…]
// One row per sampling interval; DateTime is "yyyy-MM-dd HH:mm:ss" in the controller's local time
// (no zone), numbers are DecimalFormat("###.###"). Older nGrinder versions have no vuser column,
// and the statistics columns depend on the plug-ins a script used, so only DateTime, Tests,
// Errors, Mean_Test_Time_(ms) and TPS are required.
//
// Result: benchmark "ngrinder" for the totals, plus one per test (named by its Description) when
// the report has per-test columns. Each has one repetition with interval time series and a run
// summary: tps (of the intervals' TPS: mean, peak = max), mean_test_time (of every test: weighted
// by tests, pooled sd), tests and errors (totals), vusers, and the optional HTTP columns present.
// startedAt is left out: DateTime has no time zone; it is kept in environment.firstSample.
import { firstLine, foreignHint, requireText } from "./body-checks";
import { forEachCsvRecord } from "./csv-records";
import { extent, mean, parseDecimal, requireCount, requireNonNegative } from "./numeric-cells";
import type { ImportedBenchmark, ImportedMetric, ImportResult, Importer } from "./types";
import { ImportFormatError } from "./types";

const FORMAT = "ngrinder";
const DATE_TIME = /^(\d{4})-(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d)$/;
const REQUIRED = ["Tests", "Errors", "Mean_Test_Time_(ms)", "TPS"] as const;
// Columns that count something: whole numbers that fit a count.
const COUNT_COLUMNS = new Set(["vuser", "Tests", "Errors"]);

/** Optional statistics columns worth a metric: key, unit, direction, label. */
const OPTIONAL: Record<string, [string, string, "lower_is_better" | "higher_is_better", string]> = {
  Mean_time_to_first_byte: ["mean_time_to_first_byte", "ms", "lower_is_better", "Mean time to first byte"],
  Response_bytes_per_second: ["response_bytes_per_second", "B/s", "higher_is_better", "Response bytes per second"],
  Mean_time_to_establish_connection: ["mean_time_to_establish_connection", "ms", "lower_is_better", "Mean time to establish connection"],
  Mean_time_to_resolve_host: ["mean_time_to_resolve_host", "ms", "lower_is_better", "Mean time to resolve host"],
};

/** One test's (or the totals') columns: statistic name → column index. */
type Columns = Map<string, number>;

interface Series {
  name: string;
  columns: Columns;
  descriptionColumn?: number;
  values: Map<string, number[]>;
  description?: string;
}

/** "2026-11-21 06:00:01" → ms on a zone-less clock (only differences are used). */
function dateTimeMs(cell: string, where: string): number {
  const m = DATE_TIME.exec(cell.trim());
  if (!m) throw new ImportFormatError(FORMAT, `DateTime "${cell}" at ${where} is not "yyyy-MM-dd HH:mm:ss"`);
  const [, y, mo, d, h, mi, s] = m.map(Number);
  return Date.UTC(y ?? 0, (mo ?? 1) - 1, d ?? 1, h ?? 0, mi ?? 0, s ?? 0);
}

/** Splits the header into the totals' columns and, after each "Description", one test's. */
function splitHeader(header: string[]): Series[] {
  if (header[0] !== "DateTime") {
    throw new ImportFormatError(FORMAT, `expected nGrinder's CSV header starting with "DateTime,vuser,Tests,…" but found "${header.slice(0, 3).join(",")}…"`);
  }
  const totals: Series = { name: "ngrinder", columns: new Map(), values: new Map() };
  const series = [totals];
  let current = totals;
  header.forEach((cell, i) => {
    if (i === 0) return;
    if (cell === "Description") {
      current = { name: `test ${series.length}`, columns: new Map(), descriptionColumn: i, values: new Map() };
      series.push(current);
      return;
    }
    // Per-test columns carry a "-<test number>" suffix; vuser exists only for the totals.
    const name = current === totals ? cell : cell.replace(/-\d+$/, "");
    if (current.columns.has(name)) throw new ImportFormatError(FORMAT, `column "${cell}" appears twice`);
    current.columns.set(name, i);
  });
  for (const s of series) {
    const missing = REQUIRED.filter((name) => !s.columns.has(name));
    if (missing.length > 0) throw new ImportFormatError(FORMAT, `the header has no ${missing.join(", ")} column${s === totals ? "" : ` for ${s.name}`}`);
  }
  return series;
}

function readRow(s: Series, cells: string[], where: string): void {
  if (s.descriptionColumn !== undefined) s.description ??= cells[s.descriptionColumn];
  for (const [name, index] of s.columns) {
    const cell = cells[index] ?? "";
    const value = parseDecimal(FORMAT, cell, `${where}, column "${name}"`);
    if (COUNT_COLUMNS.has(name)) requireCount(FORMAT, value, name, where, cell.trim());
    else requireNonNegative(FORMAT, value, name, where);
    const list = s.values.get(name) ?? [];
    list.push(value);
    s.values.set(name, list);
  }
}

function summed(values: number[]): number {
  return values.reduce((a, b) => a + b, 0);
}

function toBenchmark(s: Series, offsetsMs: number[]): ImportedBenchmark {
  const col = (name: string) => s.values.get(name) ?? [];
  const tests = col("Tests");
  const errors = col("Errors");
  const tps = col("TPS");
  const meanTime = col("Mean_Test_Time_(ms)");
  const sd = s.values.get("Test_Time_Standard_Deviation_(ms)");
  const totalTests = requireCount(FORMAT, summed(tests), "the total of Tests", `the ${s.name}`);
  const series = (values: number[]) => ({ offsetsMs, values });
  const metrics: ImportedMetric[] = [
    // The summary describes the intervals' TPS (their mean is the run's TPS); the total of tests is
    // the "tests" metric (a sum of TPS values is tests only with 1-second intervals).
    {
      key: "tps",
      unit: "ops/s",
      direction: "higher_is_better",
      label: "TPS (per interval; max = peak TPS)",
      timeSeries: series(tps),
      summary: { n: tps.length, mean: mean(tps), ...extent(tps) },
    },
  ];
  if (totalTests > 0) {
    // The run's mean test time weights each interval by its tests; its sd pools the intervals'.
    const weightedMean = summed(meanTime.map((m, i) => m * (tests[i] ?? 0))) / totalTests;
    const summary: ImportedMetric["summary"] = { n: totalTests, mean: weightedMean };
    if (sd) {
      const squares = summed(meanTime.map((m, i) => (tests[i] ?? 0) * ((sd[i] ?? 0) ** 2 + m ** 2)));
      summary.sd = Math.sqrt(Math.max(0, squares / totalTests - weightedMean ** 2));
    }
    metrics.push({
      key: "mean_test_time",
      unit: "ms",
      direction: "lower_is_better",
      label: "Mean test time (summary weighted by tests)",
      timeSeries: series(meanTime),
      summary,
    });
  }
  metrics.push({
    key: "tests",
    unit: "count",
    direction: "higher_is_better",
    label: "Successful tests (total)",
    timeSeries: series(tests),
    summary: { n: 1, mean: totalTests, sum: totalTests },
  });
  const totalErrors = summed(errors);
  metrics.push({
    key: "errors",
    unit: "count",
    direction: "lower_is_better",
    label: "Errors (total)",
    timeSeries: series(errors),
    summary: { n: 1, mean: totalErrors, sum: totalErrors },
  });
  const vusers = s.values.get("vuser");
  if (vusers) {
    metrics.push({
      key: "vusers",
      unit: "count",
      direction: "higher_is_better",
      label: "Virtual users (load level)",
      timeSeries: series(vusers),
      summary: { n: vusers.length, mean: mean(vusers), ...extent(vusers) },
    });
  }
  for (const [column, [key, unit, direction, label]] of Object.entries(OPTIONAL)) {
    const values = s.values.get(column);
    if (values) metrics.push({ key, unit, direction, label, timeSeries: series(values), summary: { n: values.length, mean: mean(values), ...extent(values) } });
  }
  return { name: s.description ?? s.name, repetitions: [{ metrics }] };
}

export const importNgrinder: Importer = (body) => {
  const text = requireText(FORMAT, body);
  if (!/^\s*DateTime,/.test(text)) {
    throw new ImportFormatError(
      FORMAT,
      `expected nGrinder's CSV report (header "DateTime,vuser,Tests,Errors,…") but the body starts with "${firstLine(text)}"${foreignHint(text)}`,
    );
  }
  let series: Series[] | undefined;
  const times: number[] = [];
  let firstSample = "";
  forEachCsvRecord(FORMAT, text, (cells, line) => {
    if (!series) {
      series = splitHeader(cells);
      return;
    }
    const where = `line ${line}`;
    const ms = dateTimeMs(cells[0] ?? "", where);
    if (times.length > 0 && ms < (times.at(-1) ?? ms)) throw new ImportFormatError(FORMAT, `DateTime goes backwards at ${where}`);
    if (times.length === 0) firstSample = cells[0] ?? "";
    times.push(ms);
    for (const s of series) readRow(s, cells, where);
  });
  if (!series) throw new ImportFormatError(FORMAT, "the CSV has no header");
  if (times.length === 0) throw new ImportFormatError(FORMAT, "the report has a header but no sampling rows");
  const offsetsMs = times.map((t) => t - (times[0] ?? t));
  const benchmarks = series.map((s) => toBenchmark(s, offsetsMs));
  return { format: FORMAT, benchmarks, environment: { firstSample, intervals: times.length } } satisfies ImportResult;
};
