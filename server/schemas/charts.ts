// The figures behind the experiment page's charts (experiment.results): every number a chart
// draws, computed in server/ so the UI only lays them out. Values are in the metric's unit.
import { z } from "zod";
import { ZDirection } from "../stats/schemas";

const num = z.number();
const count = z.number().int().nonnegative();

/** One bar per variant: the comparison's median with its CI and mean ± sd (the same figures as the table). */
export const ZBarFigure = z.object({
  variant: z.string(),
  isBaseline: z.boolean(),
  n: count,
  median: num,
  ciLow: num.nullable(),
  ciHigh: num.nullable(),
  /** Confidence the order statistics achieve (below 95% with few runs). */
  ciConfidence: num.nullable(),
  mean: num,
  sd: num.nullable(),
});

/**
 * A variant's p50 … p99.9. "histograms": its runs' HdrHistograms merged into one (the comparison's
 * own figures). "run summaries" (runs stored without samples, e.g. from wrk or k6): per level, the
 * median across runs of each run's stored value; null where none of its runs has that level.
 */
export const ZPercentileFigure = z.object({
  variant: z.string(),
  source: z.enum(["histograms", "run summaries"]),
  /** Runs the figures come from. */
  runs: count,
  /** Samples in the merged histogram; null for run summaries (each tool counted its own). */
  count: count.nullable(),
  p50: num.nullable(),
  p90: num.nullable(),
  p95: num.nullable(),
  p99: num.nullable(),
  p999: num.nullable(),
});

export const ZDistributionVariant = z.object({
  variant: z.string(),
  /** Samples recorded in the variant's histograms (= the sum of counts). */
  total: count,
  /** Samples per bucket: counts[i] lies in [edges[i], edges[i + 1]). */
  counts: z.array(count),
  /** counts[i] ÷ total: the histogram's heights, comparable between variants with different n. */
  shares: z.array(num),
  /** Fraction of samples at or below edges[i + 1]; the last is 1. */
  cumulative: z.array(num),
});

/** Shared buckets for all variants of a metric, so their histograms line up. */
export const ZDistributionBinning = z.object({
  scale: z.enum(["linear", "log"]),
  /** Bucket boundaries, ascending; one more than there are buckets. */
  edges: z.array(num),
  variants: z.array(ZDistributionVariant),
});

export const ZDistribution = z.object({
  /** Linear buckets always; log-spaced ones too when every value is positive. */
  linear: ZDistributionBinning,
  log: ZDistributionBinning.nullable(),
  /** The scale that shows this data best (log for a long right tail). */
  suggestedScale: z.enum(["linear", "log"]),
  /** Variants left out and why (e.g. runs stored without a histogram). */
  notes: z.array(z.string()),
});

/** One run's replicate: the value it contributes to the comparison. */
export const ZRunValue = z.object({
  variant: z.string(),
  /** Null on a share page: a shared comparison names no runs (share links, shared-content.ts). */
  runId: z.string().nullable(),
  repetition: z.number().int(),
  value: num,
});

export const ZTimePoint = z.object({ tMs: num, value: num });

export const ZRunTimeSeries = z.object({
  variant: z.string(),
  /** Null on a share page, as for ZRunValue. */
  runId: z.string().nullable(),
  repetition: z.number().int(),
  /** Points stored for this run; more than points.length when downsampled. */
  storedPoints: count,
  /** Milliseconds from the series' start; at most 600 points, each bucket's min and max kept. */
  points: z.array(ZTimePoint),
});

export const ZMetricCharts = z.object({
  key: z.string(),
  label: z.string(),
  unit: z.string(),
  direction: ZDirection,
  aggregation: z.string(),
  bars: z.array(ZBarFigure),
  percentiles: z.array(ZPercentileFigure),
  distribution: ZDistribution.nullable(),
  runs: z.array(ZRunValue),
  timeSeries: z.array(ZRunTimeSeries),
});

/** One variant's readings of one probe: at each whole second, the mean over its runs of their readings in that second. */
export const ZTargetLine = z.object({
  variant: z.string(),
  probe: z.string(),
  /** Runs whose series the line averages. */
  runs: count,
  points: z.array(ZTimePoint),
});

/**
 * A figure several probes report (each probe's `<probe>.cpu_percent`), every probe of every
 * variant on one time axis: two servers behind nginx against the one before it.
 */
export const ZTargetOverlay = z.object({
  /** The part of the metric keys after the probe's name, e.g. "cpu_percent". */
  suffix: z.string(),
  unit: z.string(),
  direction: ZDirection,
  /** The probes that report it, in the order their metrics are listed. */
  probes: z.array(z.string()),
  lines: z.array(ZTargetLine),
});

export const ZExperimentCharts = z
  .object({
    experiment: z.object({ slug: z.string(), title: z.string() }),
    baseline: z.string(),
    /** In the experiment's order; `color` (0–7) stays with a variant whatever the baseline. */
    variants: z.array(z.object({ name: z.string(), isBaseline: z.boolean(), color: count })),
    metrics: z.array(ZMetricCharts),
    /** Figures two or more probes report, overlaid across probes and variants; empty otherwise (and in snapshots taken before there were any). */
    targets: z.array(ZTargetOverlay).default([]),
  })
  .meta({ id: "ExperimentCharts" });

export type TBarFigure = z.output<typeof ZBarFigure>;
export type TPercentileFigure = z.output<typeof ZPercentileFigure>;
export type TDistribution = z.output<typeof ZDistribution>;
export type TDistributionBinning = z.output<typeof ZDistributionBinning>;
export type TRunValue = z.output<typeof ZRunValue>;
export type TRunTimeSeries = z.output<typeof ZRunTimeSeries>;
export type TTimePoint = z.output<typeof ZTimePoint>;
export type TMetricCharts = z.output<typeof ZMetricCharts>;
export type TExperimentCharts = z.output<typeof ZExperimentCharts>;
export type TTargetOverlay = z.output<typeof ZTargetOverlay>;
export type TTargetLine = z.output<typeof ZTargetLine>;
