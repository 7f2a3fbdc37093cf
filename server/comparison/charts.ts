// Everything the experiment page's charts draw, per metric: bars (median + CI, mean ± sd) and
// merged percentiles taken from the comparison, so the charts and the table can never disagree
// (runs without histograms: the median of their own stored percentiles, chart-percentiles.ts);
// a distribution from the stored HdrHistograms; each run's replicate value (strip plot); and each
// run's time series, thinned to at most 600 points; and the figures several probes report,
// overlaid across probes and variants (target-overlays.ts).
import type { Db } from "../db/client";
import type { TBarFigure, TExperimentCharts, TMetricCharts, TRunTimeSeries, TRunValue } from "../schemas/charts";
import type { VariantStats } from "../stats/schemas";
import { distributionOf, type VariantRecorded } from "./chart-distribution";
import { cachedRecordedValues } from "./recorded-values-cache";
import { percentileFigure } from "./chart-percentiles";
import { downsampleMinMax } from "./chart-downsample";
import { hasFiniteFigures, isFiniteSeries, storedFigures } from "../runs/finite-figures";
import type { TComparison } from "../schemas/comparison";
import { cachedComparisonOf, withNoiseFloorOf } from "./comparison";
import { cachedCharts, rememberCharts } from "./comparison-cache";
import { runFigure } from "../runs/run-figure";
import { targetOverlays } from "./target-overlays";
import { comparedRunsWhere } from "./compared-runs";

/** Variant colours are CSS variables --series-0 … --series-7 (app/globals.css). */
const PALETTE_SIZE = 8;

type ResultRow = Awaited<ReturnType<typeof loadResults>>[number];
type Variant = { id: string; name: string };

/** The compared runs' results; those with a figure that is not finite are left out, as the comparison leaves them out. */
async function loadResults(db: Db, experimentId: string) {
  const results = await db.runMetricResult.findMany({
    where: { run: comparedRunsWhere(experimentId) },
    // The comparison's order; sorted by variant and repetition below (a stable sort keeps this
    // order between runs of the same repetition).
    orderBy: [{ run: { createdAt: "asc" } }, { runId: "asc" }],
    select: { id: true, metricId: true, ...storedFigures, histogram: true, run: { select: { id: true, variantId: true, repetition: true } } },
  });
  return results.filter(hasFiniteFigures);
}

/** A series with a point that is not finite (stored before ingest refused them) is not drawn. */
async function loadTimeSeries(db: Db, experimentId: string) {
  const series = await db.runTimeSeries.findMany({
    where: { run: comparedRunsWhere(experimentId) },
    orderBy: [{ run: { createdAt: "asc" } }, { runId: "asc" }],
    select: { metricId: true, offsetsMs: true, values: true, run: { select: { id: true, variantId: true, repetition: true } } },
  });
  return series.filter(isFiniteSeries);
}

/**
 * The comparison and its charts from one computation: the experiment page shows both, and the
 * charts reuse the comparison's figures. Both are cached under one key, so a view of an experiment
 * whose runs did not change reads neither results nor series. A failure in the charts leaves the
 * comparison standing.
 */
export async function getExperimentResults(db: Db, where: { projectSlug: string }, experimentSlug: string, baselineName?: string) {
  // Refuses an unknown experiment (404) or baseline (422) with the comparison's own messages.
  const { experiment, key, compared } = await cachedComparisonOf(db, where, experimentSlug, baselineName);
  const comparison = await withNoiseFloorOf(db, experiment, compared);
  try {
    // The charts take the comparison's figures, which the noise floor does not change.
    return { comparison, charts: cachedCharts(key) ?? rememberCharts(key, await chartsFor(db, where, compared)), chartsError: null };
  } catch (error) {
    console.error("charts failed:", error);
    return { comparison, charts: null, chartsError: error instanceof Error ? error.message : String(error) };
  }
}

/** Charts of an experiment whose comparison is already computed (bars and percentiles come from it). */
export async function chartsFor(db: Db, where: { projectSlug: string }, comparison: TComparison): Promise<TExperimentCharts> {
  const experiment = await db.experiment.findFirstOrThrow({
    where: { project: { slug: where.projectSlug }, slug: comparison.experiment.slug },
    select: {
      id: true,
      variants: { orderBy: { position: "asc" }, select: { id: true, name: true } },
      metrics: { orderBy: { position: "asc" }, select: { id: true, key: true, unit: true, direction: true, aggregation: true } },
    },
  });
  // One after the other: a read takes at most one of the pool's connections at a time.
  const results = await loadResults(db, experiment.id);
  const series = await loadTimeSeries(db, experiment.id);
  // In the comparison's order: the client side's metrics, then its probes' (the system under test's).
  const rank = new Map(comparison.metrics.map((metric, index) => [metric.key, index]));
  const metrics = [...experiment.metrics].sort((a, b) => (rank.get(a.key) ?? 0) - (rank.get(b.key) ?? 0));
  const order = new Map(experiment.variants.map((v, i) => [v.id, i]));
  const byPosition = <T extends { run: { variantId: string; repetition: number } }>(a: T, b: T) =>
    (order.get(a.run.variantId) ?? 0) - (order.get(b.run.variantId) ?? 0) || a.run.repetition - b.run.repetition;

  return {
    experiment: { slug: comparison.experiment.slug, title: comparison.experiment.title },
    baseline: comparison.baseline,
    variants: experiment.variants.map((v, i) => ({ name: v.name, isBaseline: v.name === comparison.baseline, color: i % PALETTE_SIZE })),
    metrics: metrics.map((metric) => {
      const described = comparison.metrics.find((m) => m.key === metric.key);
      const rows = results.filter((r) => r.metricId === metric.id).sort(byPosition);
      // Every variant with runs has its figures there, also when nothing could be compared.
      const stats = described?.comparison?.variants ?? [];
      const ownSeries = series.filter((s) => s.metricId === metric.id).sort(byPosition);
      // A run that uploaded only a time series stored the percentiles of its points (TPS per
      // second), not of its operations: no tool printed those. Such a row has no histogram but a
      // series; a summary uploaded with a series looks the same and is left out too (no importer
      // writes percentiles next to a series).
      const withSeries = new Set(ownSeries.map((s) => s.run.id));
      const ownPercentiles = rows.filter((r) => r.histogram || !withSeries.has(r.run.id));
      return {
        key: metric.key,
        label: described?.label ?? "",
        unit: metric.unit,
        direction: metric.direction,
        aggregation: metric.aggregation,
        bars: stats.flatMap(barOf),
        percentiles: stats.flatMap(
          (s) =>
            percentileFigure(
              s,
              ownPercentiles.filter((r) => nameOf(experiment.variants, r.run.variantId) === s.variant),
            ) ?? [],
        ),
        distribution: distributionFor(rows, experiment.variants),
        runs: rows.map((r): TRunValue => ({
          variant: nameOf(experiment.variants, r.run.variantId),
          runId: r.run.id,
          repetition: r.run.repetition,
          value: runFigure(r, metric.aggregation),
        })),
        timeSeries: ownSeries.map((s): TRunTimeSeries => ({
          variant: nameOf(experiment.variants, s.run.variantId),
          runId: s.run.id,
          repetition: s.run.repetition,
          storedPoints: s.values.length,
          points: downsampleMinMax(s.offsetsMs, s.values),
        })),
      } satisfies TMetricCharts;
    }),
    targets: targetOverlays(
      metrics.map((metric) => ({ ...metric, probe: comparison.metrics.find((m) => m.key === metric.key)?.probe })),
      experiment.variants.map((v) => v.name),
      (key) => {
        const id = experiment.metrics.find((metric) => metric.key === key)?.id;
        return series
          .filter((s) => s.metricId === id)
          .map((s) => ({ variant: nameOf(experiment.variants, s.run.variantId), offsetsMs: s.offsetsMs, values: s.values }));
      },
    ),
  };
}

function nameOf(variants: readonly Variant[], id: string): string {
  return variants.find((v) => v.id === id)?.name ?? "?";
}

function barOf(stats: VariantStats): TBarFigure[] {
  if (stats.n === 0 || stats.median === null || stats.mean === null) return [];
  const ci = stats.medianCi;
  return [
    {
      variant: stats.variant,
      isBaseline: stats.isBaseline,
      n: stats.n,
      median: stats.median,
      ciLow: ci?.low ?? null,
      ciHigh: ci?.high ?? null,
      ciConfidence: ci?.confidence ?? null,
      mean: stats.mean,
      sd: stats.sd,
    },
  ];
}

function distributionFor(rows: readonly ResultRow[], variants: readonly Variant[]) {
  const recorded: VariantRecorded[] = [];
  const notes: string[] = [];
  for (const variant of variants) {
    const own = rows.filter((r) => r.run.variantId === variant.id);
    if (own.length === 0) continue;
    const missing = own.filter((r) => !r.histogram || !r.histogramScale).length;
    if (missing > 0) {
      // Part of a variant's runs would misdraw its shape; leave it out and say so.
      notes.push(`${variant.name}: ${missing === own.length ? "runs stored summaries only" : `${missing} of ${own.length} runs have no histogram`}`);
      continue;
    }
    recorded.push({ variant: variant.name, runs: own.map((r) => cachedRecordedValues(r.id, r.histogram as Uint8Array, r.histogramScale as number)) });
  }
  return distributionOf(recorded, notes);
}
