// The one number a run contributes to everything that compares runs — the experiment's
// comparison, the history and its change points, the cross-experiment comparison, the CI check
// and alert rules, the charts' run values, the exports and the report: the run's explicit value
// when its producer gave one (the whole run's rate while its summary describes per-second rates),
// else its summary reduced by the metric's aggregation. One rule, in two forms: runFigure for rows
// read into JavaScript, runFigureSql for aggregates computed in SQL.
import { Prisma } from "../db/generated/client";
import type { MetricAggregation } from "../db/generated/enums";

/** The stored figures runFigure reads (value is null when the producer gave none). */
export interface RunFigureSource {
  value: number | null;
  mean: number;
  min: number | null;
  max: number | null;
  sum: number | null;
  p50: number | null;
  p90: number | null;
  p95: number | null;
  p99: number | null;
}

/** The stored figure a run contributes for an aggregation (the mean when that figure is unknown). */
export type ReplicateFigure = "mean" | "p50" | "p90" | "p95" | "p99" | "min" | "max" | "sum";

/** Which summary figure is a run's one number under an aggregation, when it has no value of its own. */
export function replicateFigure(aggregation: MetricAggregation): ReplicateFigure {
  switch (aggregation) {
    case "median":
      return "p50";
    case "p90":
    case "p95":
    case "p99":
    case "min":
    case "max":
    case "sum":
      return aggregation;
    default:
      // mean, rate (a producer that knows the run's rate sends it as the value) and last.
      return "mean";
  }
}

/** The run's figure: its value, else its summary's figure for the aggregation, else its mean. */
export function runFigure(result: RunFigureSource, aggregation: MetricAggregation): number {
  return result.value ?? result[replicateFigure(aggregation)] ?? result.mean;
}

/** The same rule in SQL, over a "RunMetricResult" row aliased `alias`. */
export function runFigureSql(aggregation: MetricAggregation, alias: string): Prisma.Sql {
  return Prisma.raw(`COALESCE(${alias}."value", ${alias}."${replicateFigure(aggregation)}", ${alias}."mean")`);
}
