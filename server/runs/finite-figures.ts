// Ingest refuses figures that are not finite (prepare-metric.ts), but a database from before it
// did may hold results whose sum overflowed to -Infinity, or a NaN. Such a result is left out of
// everything computed from stored results — one bad run must not make its experiment
// unreadable — and the experiment page says which results were left out and why. Every reader
// selects all the figures (storedFigures), so they all leave out the very same results.
import type { Prisma } from "../db/client";

/** Select every stored figure of a result, so that hasFiniteFigures can check them all. */
export const storedFigures = {
  mean: true,
  sd: true,
  min: true,
  max: true,
  p50: true,
  p90: true,
  p95: true,
  p99: true,
  p999: true,
  sum: true,
  value: true,
  histogramScale: true,
} as const satisfies Prisma.RunMetricResultSelect;

type Figure = keyof typeof storedFigures;
export type StoredFigures = Record<Figure, number | null>;

/** The stored figures of a result that are not finite numbers (unknown ones are fine). */
export function nonFiniteFigures(result: StoredFigures): Figure[] {
  return (Object.keys(storedFigures) as Figure[]).filter((figure) => {
    const value = result[figure];
    return value !== null && !Number.isFinite(value);
  });
}

export function hasFiniteFigures(result: StoredFigures): boolean {
  return nonFiniteFigures(result).length === 0;
}

/** Why a result is left out of comparisons and charts, or null when it is not. */
export function unusableReason(result: StoredFigures): string | null {
  const figures = nonFiniteFigures(result);
  if (figures.length === 0) return null;
  return `${figures.join(", ")} ${figures.length === 1 ? "is" : "are"} not finite (stored before Versus refused such uploads): this result is left out of comparisons and charts`;
}

/** A stored time series every point of which is a finite number: the others are not drawn. */
export function isFiniteSeries(series: { offsetsMs: number[]; values: number[] }): boolean {
  return series.values.every(Number.isFinite) && series.offsetsMs.every(Number.isFinite);
}
