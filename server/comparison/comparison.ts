// Builds an experiment's comparison from stored run summaries (never raw samples, except for
// the single-run case the statistics label as weak evidence) and the statistics engine. Each run
// contributes its figure by the rule of run-figure.ts.
import type { Db, Prisma } from "../db/client";
import type { MetricAggregation } from "../db/generated/enums";
import { AppError } from "../core/errors";
import { decodeSamples } from "../runs/sample-codec";
import { compareMetric, describeMetric, type VariantData } from "../stats/compare";
import type { MergedPercentiles } from "../stats/schemas";
import { hasFiniteFigures, storedFigures } from "../runs/finite-figures";
import { runFigure, type RunFigureSource } from "../runs/run-figure";
import { mergedPercentiles, type HistogramGroup } from "./merged-percentiles";
import { cachedComparison, comparisonKey, rememberComparison } from "./comparison-cache";
import type { TComparison } from "../schemas/comparison";
import { probeNamesOf, probeOfMetric } from "../workloads/probe-metrics";
import { withNoiseFloor } from "./noise-floor";
import { comparedRunsWhere, noiseRunsLeftOut, generatorLimitedRuns } from "./compared-runs";
import { experimentToCompare, type ExperimentToCompare } from "./experiment-to-compare";

type StoredResult = RunFigureSource;

/**
 * One variant's input to the engine: a replicate per run and, when every run has a histogram on
 * one scale, the histograms to merge. Shared with the cross-experiment comparison.
 */
export function variantData(
  name: string,
  isBaseline: boolean,
  rows: (StoredResult & { histogram?: Uint8Array | null; histogramScale: number | null })[],
  aggregation: MetricAggregation,
  merged?: MergedPercentiles | null,
): VariantData {
  const scale = merged === undefined && rows.every((r) => r.histogram) ? commonScale(rows) : undefined;
  return {
    name,
    isBaseline,
    replicates: rows.map((r) => runFigure(r, aggregation)),
    histograms: scale === undefined ? undefined : rows.map((r) => r.histogram as Uint8Array),
    histogramScale: scale,
    mergedPercentiles: merged,
  };
}

/**
 * The histogram group of one variant's rows, when every row has a histogram on one scale;
 * `lineage` names whose rows they are (merged-percentiles.ts grows its merge as runs arrive).
 */
export function histogramGroup(rows: { id: string; histogramScale: number | null; max?: number | null }[], lineage?: string): HistogramGroup | undefined {
  const scale = commonScale(rows);
  return scale === undefined ? undefined : { resultIds: rows.map((r) => r.id), scale, lineage };
}

/**
 * The scale the rows' histograms merge at: the one they share, where a histogram of zeros only
 * (max 0) is the same at every scale and shares any; undefined when a row has none or two differ.
 */
function commonScale(rows: { histogramScale: number | null; max?: number | null }[]): number | undefined {
  // ingest stores histogram and histogramScale together, so a scale means a histogram.
  if (rows.length === 0 || rows.some((r) => r.histogramScale == null)) return undefined;
  const scales = new Set(rows.filter((r) => r.max !== 0).map((r) => r.histogramScale as number));
  if (scales.size > 1) return undefined;
  return scales.values().next().value ?? (rows[0]?.histogramScale as number);
}

export async function getComparison(
  db: Db,
  where: { projectId: string } | { projectSlug: string },
  experimentRef: string,
  baselineName?: string,
  /** Only the runs stored by this batch's jobs (a batch's own verdict: server/regressions/batch-result.ts). */
  only: { batchId?: string } = {},
): Promise<TComparison> {
  const { experiment, compared } = await cachedComparisonOf(db, where, experimentRef, baselineName, only);
  return withNoiseFloorOf(db, experiment, compared, only);
}

/** Outside the cache: a new A/A batch changes the floor without changing these runs. */
export function withNoiseFloorOf(
  db: Db,
  experiment: ExperimentToCompare,
  compared: TComparison,
  only: { batchId?: string } = {},
): Promise<TComparison> | TComparison {
  return experiment.hasNoiseBatch ? withNoiseFloor(db, experiment, compared, only) : compared;
}

/**
 * The comparison before its noise floor, from the cache when the experiment is as it was
 * (comparison-cache.ts), with the key it is cached under: whatever else is a function of the same
 * runs (the experiment page's charts) is cached under it too.
 */
export async function cachedComparisonOf(
  db: Db,
  where: { projectId: string } | { projectSlug: string },
  experimentRef: string,
  baselineName?: string,
  only: { batchId?: string } = {},
): Promise<{ experiment: ExperimentToCompare; key: string; compared: TComparison }> {
  const experiment = await experimentToCompare(db, where, experimentRef);
  if (!experiment) throw new AppError("NOT_FOUND", `No experiment "${experimentRef}" in this project`);

  const baseline = baselineName ? experiment.variants.find((v) => v.name === baselineName) : experiment.variants.find((v) => v.isBaseline);
  if (!baseline) {
    throw new AppError(
      "UNPROCESSABLE",
      `No variant "${baselineName}" to use as the baseline; the variants are ${experiment.variants.map((v) => `"${v.name}"`).join(", ")}`,
      {
        fieldIssues: [{ path: ["baseline"], message: `not a variant of this experiment` }],
      },
    );
  }

  // Read before the results, so a key never stands for results older than it (comparison-cache.ts);
  // a batch's own verdict compares other runs than the experiment's, so it has a key of its own.
  const key = JSON.stringify([
    comparisonKey({ experiment, baselineId: baseline.id, variants: experiment.variants, metrics: experiment.metrics }),
    only.batchId ?? null,
  ]);
  const compared = cachedComparison(key) ?? rememberComparison(key, await compare(db, experiment, baseline, only));
  return { experiment, key, compared };
}

async function compare(
  db: Db,
  experiment: ExperimentToCompare,
  baseline: ExperimentToCompare["variants"][number],
  only: { batchId?: string },
): Promise<TComparison> {
  const runFilter = comparedRunsWhere(experiment.id, only.batchId);
  // Said beside every metric's figures: the A/A runs left out, and the runs their generators limited.
  const leftOut = [
    ...(await noiseRunsLeftOut(db, experiment.id, experiment.variants, only.batchId)),
    ...(await generatorLimitedRuns(db, runFilter, experiment.variants)),
  ];
  const stored = await db.runMetricResult.findMany({
    where: { run: runFilter },
    // Runs stored by one upload share their transaction's createdAt: break ties by run id (cuids
    // ascend in creation order), so replicates (and the seeded A/A resampling) come in a fixed order.
    orderBy: [{ run: { createdAt: "asc" } }, { runId: "asc" }],
    // Histogram bytes are not read here: merged percentiles come from a cache (merged-percentiles.ts).
    select: { id: true, metricId: true, ...storedFigures, run: { select: { id: true, variantId: true } } },
  });
  // A result with a figure that is not finite (stored before ingest refused them) is left out.
  const results = stored.filter(hasFiniteFigures);

  const runsPerVariant = new Map(experiment.variants.map((v) => [v.id, new Set<string>()]));
  for (const result of results) runsPerVariant.get(result.run.variantId)?.add(result.run.id);

  const metrics = [];
  for (const metric of experiment.metrics) {
    const rows = results.filter((r) => r.metricId === metric.id);
    const present = experiment.variants
      .map((variant) => ({ variant, own: rows.filter((r) => r.run.variantId === variant.id) }))
      .filter(({ variant, own }) => own.length > 0 || variant.id === baseline.id);
    const groups = present.map(({ variant, own }) => histogramGroup(own, JSON.stringify([metric.id, variant.id, only.batchId ?? null])));
    const merged = await mergedPercentiles(
      db,
      groups.filter((g): g is HistogramGroup => g !== undefined),
    );
    let next = 0;
    const variants: VariantData[] = present.map(({ variant, own }, index) =>
      variantData(variant.name, variant.id === baseline.id, own, metric.aggregation, groups[index] ? (merged[next++] ?? null) : null),
    );
    const spec = { key: metric.key, unit: metric.unit, direction: metric.direction };
    const baselineRuns = variants.find((v) => v.isBaseline)?.replicates.length ?? 0;
    if (baselineRuns === 0 || variants.length < 2) {
      // Nothing to test against, but every variant with runs still gets its own figures.
      const withRuns = variants.filter((v) => v.replicates.length > 0);
      metrics.push({
        ...describe(metric),
        comparison: withRuns.length > 0 ? describeMetric(spec, withRuns, { alpha: experiment.alpha }) : null,
        reason: `${baselineRuns === 0 ? `the baseline "${baseline.name}" has no runs with this metric` : "no other variant has runs with this metric"}${leftOut.length ? ` (${leftOut.join("; ")})` : ""}`,
      });
      continue;
    }
    // One run per variant: the engine compares within-run samples (weak evidence); load those.
    if (variants.every((v) => v.replicates.length === 1)) await attachSamples(db, runFilter, metric.id, variants, experiment.variants);
    const compared = compareMetric(spec, variants, { alpha: experiment.alpha });
    metrics.push({ ...describe(metric), comparison: { ...compared, notes: [...compared.notes, ...leftOut] }, reason: null });
  }

  // The client side's metrics first, then the system under test's (its probes'), each in the experiment's order.
  const probes = probeNamesOf(experiment.variants.map((v) => v.config));
  const grouped = metrics.map((metric) => ({ ...metric, probe: probeOfMetric(metric.key, probes) }));
  return {
    experiment: { slug: experiment.slug, title: experiment.title, alpha: experiment.alpha },
    baseline: baseline.name,
    variants: experiment.variants.map((v) => ({ name: v.name, isBaseline: v.id === baseline.id, runs: runsPerVariant.get(v.id)?.size ?? 0 })),
    metrics: [...grouped.filter((metric) => !metric.probe), ...grouped.filter((metric) => metric.probe)],
  };
}

function describe(metric: { key: string; label: string; unit: string; direction: "lower_is_better" | "higher_is_better"; aggregation: MetricAggregation }) {
  return { key: metric.key, label: metric.label, unit: metric.unit, direction: metric.direction, aggregation: metric.aggregation };
}

async function attachSamples(db: Db, runFilter: Prisma.RunWhereInput, metricId: string, variants: VariantData[], all: { id: string; name: string }[]) {
  const rows = await db.runMetricResult.findMany({
    where: { metricId, samples: { not: null }, run: runFilter },
    select: { samples: true, ...storedFigures, run: { select: { variantId: true } } },
  });
  const nameOf = new Map(all.map((v) => [v.id, v.name]));
  for (const row of rows.filter(hasFiniteFigures)) {
    const variant = variants.find((v) => v.name === nameOf.get(row.run.variantId));
    if (variant && row.samples) variant.withinRunSamples = [Array.from(decodeSamples(row.samples))];
  }
}
