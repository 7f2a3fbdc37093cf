// Reading a generic CSV's metric header cells: "name [unit]" or "name (unit)", optionally
// followed by a direction, "↓"/"↑" or ":lower"/":higher", e.g. "time [ms]", "throughput (ops/s) ↑",
// "heap_used (MB):lower". Without a direction a metric is lower-is-better unless its unit is a
// rate ("…/s"); without a unit it is "count".
import type { Direction } from "./types";

export interface MetricColumn {
  key: string;
  unit: string;
  direction: Direction;
  /** Whether the header named a unit; only then can negative values be refused as impossible. */
  unitGiven: boolean;
  label: string;
}

const DIRECTION_SUFFIX = /\s*(?:(↓)|(↑)|:(lower)|:(higher))\s*$/i;
const UNIT_SUFFIX = /^(.*?)\s*(?:\[([^\]]*)\]|\(([^)]*)\))\s*$/;

export function parseMetricHeader(cell: string): MetricColumn {
  let rest = cell.trim();
  let direction: Direction | undefined;
  const d = DIRECTION_SUFFIX.exec(rest);
  if (d) {
    direction = d[1] || d[3] ? "lower_is_better" : "higher_is_better";
    rest = rest.slice(0, d.index).trim();
  }
  const u = UNIT_SUFFIX.exec(rest);
  const key = (u ? (u[1] ?? "") : rest).trim();
  const unit = (u ? (u[2] ?? u[3] ?? "") : "").trim();
  return {
    key,
    unit: unit || "count",
    direction: direction ?? (unit.endsWith("/s") ? "higher_is_better" : "lower_is_better"),
    unitGiven: unit !== "",
    label: cell.trim().slice(0, 100),
  };
}

/** Units whose values cannot be negative: times, sizes, counts and rates. */
export function isNonNegativeUnit(unit: string): boolean {
  return /^(ns|us|µs|ms|s|min|h|B|KB|KiB|MB|MiB|GB|GiB|count)$/.test(unit) || unit.endsWith("/s");
}
