// Thins a run's time series for the browser: an hour of per-second points (3,600) becomes at most
// 600. Each of maxPoints / 2 equal slices keeps its lowest and highest point, in time order, so
// spikes and dips stay visible (an average per slice would flatten exactly what users look for).
import type { TTimePoint } from "../schemas/charts";

export const MAX_POINTS = 600;

export function downsampleMinMax(offsetsMs: readonly number[], values: readonly number[], maxPoints = MAX_POINTS): TTimePoint[] {
  const points = offsetsMs.map((tMs, i) => ({ tMs, value: values[i] as number }));
  // Stored in time order by every importer; sort anyway, a hand-made upload might not be.
  points.sort((a, b) => a.tMs - b.tMs);
  if (points.length <= maxPoints) return points;
  const slices = Math.max(1, Math.floor(maxPoints / 2));
  const kept: TTimePoint[] = [];
  for (let s = 0; s < slices; s++) {
    const from = Math.floor((s * points.length) / slices);
    const to = Math.floor(((s + 1) * points.length) / slices);
    let low = from;
    let high = from;
    for (let i = from + 1; i < to; i++) {
      if ((points[i] as TTimePoint).value < (points[low] as TTimePoint).value) low = i;
      if ((points[i] as TTimePoint).value > (points[high] as TTimePoint).value) high = i;
    }
    for (const i of low === high ? [low] : [Math.min(low, high), Math.max(low, high)]) kept.push(points[i] as TTimePoint);
  }
  return kept;
}
