// Thins a series for the browser: an hour of per-second points (3,600) becomes at most 600, a
// history of 10,000 commits at most a page's width. Each of maxPoints / 2 equal slices keeps its
// lowest and highest point, in order, so spikes and dips stay visible (an average per slice
// would flatten exactly what users look for).
import type { TTimePoint } from "../schemas/charts";

export const MAX_POINTS = 600;

/**
 * Indices of `values` to keep: per slice its lowest and highest, plus every index in `keep`
 * (e.g. both sides of a change point), ascending. All indices when there are at most maxPoints.
 */
export function extremeIndices(values: readonly number[], maxPoints = MAX_POINTS, keep: Iterable<number> = []): number[] {
  if (values.length <= maxPoints) return values.map((_, i) => i);
  const kept = new Set<number>();
  for (const i of keep) if (i >= 0 && i < values.length) kept.add(i);
  const slices = Math.max(1, Math.floor(maxPoints / 2));
  for (let s = 0; s < slices; s++) {
    const from = Math.floor((s * values.length) / slices);
    const to = Math.floor(((s + 1) * values.length) / slices);
    let low = from;
    let high = from;
    for (let i = from + 1; i < to; i++) {
      if ((values[i] as number) < (values[low] as number)) low = i;
      if ((values[i] as number) > (values[high] as number)) high = i;
    }
    kept.add(low).add(high);
  }
  return [...kept].sort((a, b) => a - b);
}

export function downsampleMinMax(offsetsMs: readonly number[], values: readonly number[], maxPoints = MAX_POINTS): TTimePoint[] {
  const points = offsetsMs.map((tMs, i) => ({ tMs, value: values[i] as number }));
  // Stored in time order by every importer; sort anyway, a hand-made upload might not be.
  points.sort((a, b) => a.tMs - b.tMs);
  return extremeIndices(
    points.map((p) => p.value),
    maxPoints,
  ).map((i) => points[i] as TTimePoint);
}
