// The charts of a figure several probes report (app-1.cpu_percent and app-2.cpu_percent): every
// probe of every variant on one time axis, so two servers behind nginx are seen beside the one
// before it. A variant's line for a probe is, at each whole second of the run, the mean of its
// runs' readings in that second: runs start at offset 0, so their seconds line up.
import type { TTargetLine, TTargetOverlay } from "../schemas/charts";
import type { Direction } from "../stats/schemas";

export interface ProbeMetric {
  key: string;
  unit: string;
  direction: Direction;
  /** The probe whose metric this is (null: the client side's own). */
  probe: string | null | undefined;
}

export interface VariantSeries {
  variant: string;
  offsetsMs: readonly number[];
  values: readonly number[];
}

const SECOND = 1000;

/** One overlay per suffix two or more probes report (in the same unit), in the order the metrics are listed. */
export function targetOverlays(
  metrics: readonly ProbeMetric[],
  variants: readonly string[],
  seriesOf: (key: string) => readonly VariantSeries[],
): TTargetOverlay[] {
  const bySuffix = new Map<string, (ProbeMetric & { probe: string })[]>();
  for (const metric of metrics) {
    if (!metric.probe) continue;
    const suffix = metric.key.slice(metric.probe.length + 1);
    bySuffix.set(suffix, [...(bySuffix.get(suffix) ?? []), { ...metric, probe: metric.probe }]);
  }
  const overlays: TTargetOverlay[] = [];
  for (const [suffix, all] of bySuffix) {
    const first = all[0];
    const same = all.filter((metric) => metric.unit === first?.unit && metric.direction === first.direction);
    if (!first || same.length < 2) continue;
    const lines = variants.flatMap((variant) =>
      same.flatMap((metric) => {
        const line = lineOf(
          variant,
          metric.probe,
          seriesOf(metric.key).filter((series) => series.variant === variant),
        );
        return line ? [line] : [];
      }),
    );
    if (lines.length) overlays.push({ suffix, unit: first.unit, direction: first.direction, probes: same.map((metric) => metric.probe), lines });
  }
  return overlays;
}

function lineOf(variant: string, probe: string, runs: readonly VariantSeries[]): TTargetLine | null {
  const seconds = new Map<number, { sum: number; count: number }>();
  for (const run of runs) {
    run.offsetsMs.forEach((offset, at) => {
      const second = Math.round(offset / SECOND);
      const bucket = seconds.get(second) ?? { sum: 0, count: 0 };
      bucket.sum += run.values[at] ?? 0;
      bucket.count += 1;
      seconds.set(second, bucket);
    });
  }
  if (seconds.size === 0) return null;
  const points = [...seconds.entries()].sort(([a], [b]) => a - b).map(([second, { sum, count }]) => ({ tMs: second * SECOND, value: sum / count }));
  return { variant, probe, runs: runs.length, points };
}
