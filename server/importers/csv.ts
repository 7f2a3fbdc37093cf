// Importer for a generic CSV of results: a header row, then one row per repetition (run).
//   variant,repetition,started_at,time [ms],throughput (ops/s),heap_used (MB):lower
//   json,1,2026-11-21T05:51:58.840Z,254.288,786.510,4.332
// Every column is a metric (header syntax in csv-header.ts), except these, recognised by name
// (case-insensitive):
//   variant | benchmark      groups rows into benchmarks by its value; without it all rows are
//                            repetitions of one benchmark, "default"
//   repetition               a whole number that orders a benchmark's rows
//   timestamp | started_at   the row's start: ISO 8601 with a time zone, or unix seconds/ms
// Each row becomes one repetition whose metrics each have the summary {n: 1, mean: value}; an
// empty cell leaves that metric out of that row.
import { firstLine, foreignHint, guessTool, requireText } from "./body-checks";
import { forEachCsvRecord } from "./csv-records";
import { isNonNegativeUnit, type MetricColumn, parseMetricHeader } from "./csv-header";
import { parseDecimal, requireNonNegative } from "./numeric-cells";
import type { ImportedBenchmark, ImportedRepetition, Importer } from "./types";
import { ImportFormatError } from "./types";

const FORMAT = "csv";
const GROUP = new Set(["variant", "benchmark"]);
const TIME = new Set(["timestamp", "started_at", "startedat"]);

interface Layout {
  group?: number;
  repetition?: number;
  time?: number;
  metrics: { index: number; column: MetricColumn }[];
}

function layout(header: string[]): Layout {
  const result: Layout = { metrics: [] };
  const seen = new Set<string>();
  header.forEach((cell, index) => {
    const name = cell.trim().toLowerCase();
    if (name === "") throw new ImportFormatError(FORMAT, `header column ${index + 1} is empty`);
    if (GROUP.has(name) || name === "repetition" || TIME.has(name)) {
      const slot = GROUP.has(name) ? "group" : name === "repetition" ? "repetition" : "time";
      if (result[slot] !== undefined)
        throw new ImportFormatError(
          FORMAT,
          `more than one ${slot === "group" ? "variant/benchmark" : slot === "time" ? "timestamp/started_at" : "repetition"} column`,
        );
      result[slot] = index;
      return;
    }
    const column = parseMetricHeader(cell);
    if (column.key === "") throw new ImportFormatError(FORMAT, `header "${cell}" has a unit but no metric name`);
    if (seen.has(column.key)) throw new ImportFormatError(FORMAT, `metric "${column.key}" appears in two columns`);
    seen.add(column.key);
    result.metrics.push({ index, column });
  });
  if (result.metrics.length === 0) throw new ImportFormatError(FORMAT, "the header has no metric column (only variant/benchmark, repetition or timestamp)");
  return result;
}

function startedAt(cell: string, where: string): string {
  if (/^\d+(\.\d+)?$/.test(cell)) {
    const n = Number(cell);
    return new Date(n < 1e11 ? n * 1000 : n).toISOString(); // unix seconds, else ms
  }
  if (!/^\d{4}-\d\d-\d\d[T ]\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:?\d\d)$/i.test(cell) || !Number.isFinite(Date.parse(cell))) {
    throw new ImportFormatError(FORMAT, `timestamp "${cell}" at ${where} is not ISO 8601 with a time zone (…Z or …+01:00) nor unix time`);
  }
  return new Date(Date.parse(cell)).toISOString();
}

export const importCsv: Importer = (body) => {
  const text = requireText(FORMAT, body);
  const start = text.trimStart();
  const tool = guessTool(start);
  if (start.startsWith("{") || start.startsWith("[") || tool) {
    throw new ImportFormatError(
      FORMAT,
      `expected a CSV with a header row but the body starts with "${firstLine(start)}"${foreignHint(start)}${tool ? "; use that tool's importer" : ""}`,
    );
  }
  let columns: Layout | undefined;
  const groups = new Map<string, { order: number; repetition: ImportedRepetition }[]>();

  forEachCsvRecord(FORMAT, text, (cells, line) => {
    if (!columns) {
      columns = layout(cells);
      return;
    }
    const where = `line ${line}`;
    const name = columns.group === undefined ? "default" : (cells[columns.group] ?? "").trim();
    if (name === "") throw new ImportFormatError(FORMAT, `empty variant/benchmark name at ${where}`);
    const repetition: ImportedRepetition = { metrics: [] };
    for (const { index, column } of columns.metrics) {
      const cell = (cells[index] ?? "").trim();
      if (cell === "") continue;
      const value = parseDecimal(FORMAT, cell, `${where}, column "${column.label}"`);
      if (column.unitGiven && isNonNegativeUnit(column.unit)) requireNonNegative(FORMAT, value, `${column.key} (${column.unit})`, where);
      repetition.metrics.push({ key: column.key, unit: column.unit, direction: column.direction, label: column.label, summary: { n: 1, mean: value } });
    }
    if (repetition.metrics.length === 0) throw new ImportFormatError(FORMAT, `${where} has no metric values`);
    if (columns.time !== undefined && (cells[columns.time] ?? "").trim() !== "") repetition.startedAt = startedAt((cells[columns.time] ?? "").trim(), where);
    let order = line;
    if (columns.repetition !== undefined) {
      order = parseDecimal(FORMAT, cells[columns.repetition] ?? "", `${where}, column "repetition"`);
      if (!Number.isInteger(order) || order < 0) throw new ImportFormatError(FORMAT, `repetition ${order} at ${where} is not a whole number ≥ 0`);
    }
    const rows = groups.get(name) ?? [];
    rows.push({ order, repetition });
    groups.set(name, rows);
  });
  if (!columns) throw new ImportFormatError(FORMAT, "the CSV has no header");
  if (groups.size === 0) throw new ImportFormatError(FORMAT, "the CSV has a header but no rows");
  const benchmarks: ImportedBenchmark[] = [...groups.entries()].map(([name, rows]) => ({
    name,
    repetitions: rows.sort((a, b) => a.order - b.order).map((r) => r.repetition),
  }));
  return { format: FORMAT, benchmarks };
};
