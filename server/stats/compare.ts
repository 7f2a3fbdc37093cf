// The comparison engine's entry point: one metric, all variants of an experiment. Pure: numbers in,
// a JSON-serialisable MetricComparison out (schemas.ts). The verdict is computed on
// replicates (one summary value per run), the way benchstat does; within-run samples are used only
// when a variant has a single run, and then the result is labelled weak evidence.
//
// describeMetric gives each variant's own figures alone (one variant, or no baseline runs).
// Per variant: n, median with a distribution-free CI (median-ci.ts), mean, sample sd (and the
// population sd), CV, min/max, percentiles merged from the runs' HdrHistograms.
// Per candidate against the baseline: ratio of medians with a Hodges–Lehmann CI at 1 − α
// (change-ci.ts), two-sided Mann-Whitney U (scipy's method rule), Welch's t-test, Holm's
// correction across the candidates, and a direction-aware verdict (verdict.ts).
// Plus a ranking by median (ranking.ts) and an A/A noise estimate (noise.ts).
import { formatChange } from "./stat-text";
import { AppError } from "~/server/core/errors";
import { emptyChange, estimateChange } from "./change-ci";
import { coefficientOfVariation, mean, populationSd, sampleSd, sortedCopy } from "./descriptive";
import { mergeHistograms } from "./histogram";
import { holmAdjust } from "./holm";
import { mannWhitneyU, type MannWhitneyMethod, type MannWhitneyResult } from "./mann-whitney";
import { medianCi } from "./median-ci";
import { aaNoise, DEFAULT_SPLITS } from "./noise";
import { rankVariants } from "./ranking";
import type {
  CandidateComparison,
  Change,
  Direction,
  MannWhitneySummary,
  MergedPercentiles,
  MetricComparison,
  VariantStats,
  WeakEvidence,
  WelchSummary,
} from "./schemas";
import { decideVerdict, minReplicates } from "./verdict";
import { compareWithinRuns, WEAK_REASON } from "./weak-evidence";
import { welchTTest } from "./welch";

export interface MetricSpec {
  key: string;
  unit: string;
  direction: Direction;
}

export interface VariantData {
  name: string;
  isBaseline: boolean;
  /** One value per run (the run's summary of this metric), in run order. */
  replicates: number[];
  /** Per run, the within-run samples (optional; used only when a variant has a single run). */
  withinRunSamples?: number[][];
  /** Per run, an HdrHistogram in the V2 compressed encoding (base64 text or bytes). */
  histograms?: (Uint8Array | string)[];
  /**
   * The histograms record round(value × histogramScale) (HdrHistogram stores integers); merged
   * percentiles are divided by it to come back in the metric's unit. All runs share one scale.
   */
  histogramScale?: number;
  /**
   * Percentiles already merged from this variant's histograms, in the metric's unit (a caller that
   * caches them passes these instead of the histograms). null: known to have none.
   */
  mergedPercentiles?: MergedPercentiles | null;
}

export interface CompareOptions {
  /** Significance level of the experiment (default 0.05). */
  alpha?: number;
  /**
   * The minimum-runs rule: per variant (an experiment's, default), or only what the two sizes
   * need for the test to reach α ("attainable": a CI gate's commit against a pooled window).
   */
  minimumRuns?: "per-variant" | "attainable";
  /** Seed of the resampling in the A/A noise estimate (default 1). */
  seed?: number;
  /** Confidence level of the medians' intervals (default 0.95, benchstat's). */
  confidence?: number;
  /** A/A splits per variant (default 200). */
  noiseSplits?: number;
  /**
   * Mann-Whitney method (default "auto": scipy's rule). "benchstat" reproduces benchstat's rule
   * (exact up to 50 per side, exact given ties up to 25 per side).
   */
  mannWhitneyMethod?: MannWhitneyMethod;
}

export function unscale(percentiles: MergedPercentiles | null, scale: number): MergedPercentiles | null {
  if (!percentiles || scale === 1) return percentiles;
  const { count, ...values } = percentiles;
  return { count, ...(Object.fromEntries(Object.entries(values).map(([key, value]) => [key, value / scale])) as Omit<MergedPercentiles, "count">) };
}

function invalid(message: string): never {
  throw new AppError("UNPROCESSABLE", `cannot compare: ${message}`);
}

function validate(variants: readonly VariantData[], alpha: number, confidence: number): void {
  if (!(alpha > 0 && alpha < 1)) invalid(`alpha must be between 0 and 1, got ${alpha}`);
  if (!(confidence > 0 && confidence < 1)) invalid(`confidence must be between 0 and 1, got ${confidence}`);
  const names = new Set<string>();
  for (const v of variants) {
    if (names.has(v.name)) invalid(`two variants are named "${v.name}"`);
    names.add(v.name);
    for (const x of v.replicates) if (!Number.isFinite(x)) invalid(`variant "${v.name}" has a non-finite value (${x})`);
    for (const run of v.withinRunSamples ?? []) for (const x of run) if (!Number.isFinite(x)) invalid(`variant "${v.name}" has a non-finite sample (${x})`);
  }
  const baselines = variants.filter((v) => v.isBaseline).length;
  if (baselines > 1) invalid(`at most one variant can be the baseline, found ${baselines}`);
}

function variantStats(v: VariantData, sorted: readonly number[], confidence: number): VariantStats {
  const n = sorted.length;
  const notes: string[] = [];
  const ci = medianCi(sorted, confidence);
  if (n === 0) notes.push("no runs");
  else if (ci && !ci.reachedRequested)
    notes.push(`too few runs for a ${confidence * 100}% interval of the median: [min, max] covers it with ${(ci.confidence * 100).toFixed(1)}% confidence`);
  if (n === 1) notes.push("one run: no standard deviation");
  const m = n > 0 ? mean(sorted) : null;
  const cv = coefficientOfVariation(sorted);
  if (n >= 2 && cv === null) notes.push("mean is 0: no coefficient of variation");
  let percentiles = v.mergedPercentiles ?? null;
  if (v.mergedPercentiles === undefined && v.histograms && v.histograms.length > 0) percentiles = unscale(mergeHistograms(v.histograms), v.histogramScale ?? 1);
  return {
    variant: v.name,
    isBaseline: v.isBaseline,
    n,
    median: ci ? ci.median : null,
    medianCi: ci
      ? {
          low: ci.low,
          high: ci.high,
          confidence: ci.confidence,
          requestedConfidence: ci.requestedConfidence,
          reachedRequested: ci.reachedRequested,
          lowOrder: ci.lowOrder,
          highOrder: ci.highOrder,
          halfWidthPercent: ci.halfWidthPercent,
        }
      : null,
    mean: m,
    sd: n >= 2 ? sampleSd(sorted) : null,
    sdKind: "sample",
    populationSd: n >= 1 ? populationSd(sorted) : null,
    cv,
    min: n > 0 ? (sorted[0] as number) : null,
    max: n > 0 ? (sorted[n - 1] as number) : null,
    percentiles,
    notes,
  };
}

interface Tested {
  variant: VariantData;
  mannWhitney: MannWhitneySummary | null;
  candidateHigher: boolean;
  change: Change;
  welch: WelchSummary;
  weak: WeakEvidence | null;
}

const noChange: Change = { ...emptyChange, reason: "a variant has no runs" };

function hasSamples(v: VariantData): boolean {
  return (v.withinRunSamples ?? []).some((run) => run.length > 0);
}

function mirrored(r: MannWhitneyResult): MannWhitneyResult {
  return { ...r, u: r.n1 * r.n2 - r.u, n1: r.n2, n2: r.n1 };
}

function withinRunWelch(candidate: VariantData, baseline: VariantData): WelchSummary {
  const w = welchTTest(candidate.withinRunSamples?.flat() ?? [], baseline.withinRunSamples?.flat() ?? []);
  return { ...w, reason: w.reason ?? "on within-run samples (weak evidence: samples within a run are not independent)" };
}

function test(
  baseline: VariantData,
  candidate: VariantData,
  sortedB: readonly number[],
  sortedC: readonly number[],
  alpha: number,
  method: MannWhitneyMethod,
): Tested {
  const nb = sortedB.length;
  const nc = sortedC.length;
  const singleRun = (nb === 1 || nc === 1) && hasSamples(baseline) && hasSamples(candidate);
  if (singleRun) {
    const within = compareWithinRuns(baseline.withinRunSamples ?? [], candidate.withinRunSamples ?? [], 1 - alpha);
    if (within) {
      const n1 = within.weak.candidateSamplesUsed;
      const n2 = within.weak.baselineSamplesUsed;
      return {
        variant: candidate,
        mannWhitney: within.mannWhitney,
        candidateHigher: within.mannWhitney.u > (n1 * n2) / 2,
        change: within.change,
        welch: withinRunWelch(candidate, baseline),
        weak: within.weak,
      };
    }
  }
  if (nb === 0 || nc === 0) {
    return { variant: candidate, mannWhitney: null, candidateHigher: false, change: noChange, welch: welchTTest(sortedC, sortedB), weak: null };
  }
  // benchstat's rule is not symmetric with ties: it passes the baseline first, so do the same.
  const mw = method === "benchstat" ? mirrored(mannWhitneyU(sortedB, sortedC, method)) : mannWhitneyU(sortedC, sortedB, method);
  return {
    variant: candidate,
    mannWhitney: { u: mw.u, p: mw.p, method: mw.method, z: mw.z, ties: mw.ties },
    candidateHigher: mw.u > (nc * nb) / 2,
    change: estimateChange(sortedB, sortedC, 1 - alpha),
    welch: welchTTest(sortedC, sortedB),
    weak: null,
  };
}

/**
 * Each variant's own statistics, the ranking and the A/A noise estimate, with no test against a
 * baseline (`comparisons` is empty): what a metric shows when only one variant has runs, or the
 * baseline has none. At most one variant may be marked the baseline.
 */
export function describeMetric(metric: MetricSpec, variants: VariantData[], options: CompareOptions = {}): MetricComparison {
  const alpha = options.alpha ?? 0.05;
  const confidence = options.confidence ?? 0.95;
  validate(variants, alpha, confidence);
  const sorted = variants.map((v) => sortedCopy(v.replicates));
  const stats = variants.map((v, i) => variantStats(v, sorted[i] as number[], confidence));
  const ranking = rankVariants(
    stats.map((s) => ({
      variant: s.variant,
      median: s.median,
      ciLow: s.n >= 2 && s.medianCi ? s.medianCi.low : null,
      ciHigh: s.n >= 2 && s.medianCi ? s.medianCi.high : null,
    })),
    metric.direction,
  );
  const noise = aaNoise(
    variants.map((v) => ({ name: v.name, replicates: v.replicates })),
    { alpha, seed: options.seed ?? 1, splits: options.noiseSplits ?? DEFAULT_SPLITS, method: options.mannWhitneyMethod ?? "auto" },
  );
  return {
    metric: { key: metric.key, unit: metric.unit, direction: metric.direction },
    alpha,
    confidence,
    variants: stats,
    comparisons: [],
    ranking,
    noise,
    notes: [],
  };
}

/** describeMetric plus each candidate tested against the one baseline. */
export function compareMetric(metric: MetricSpec, variants: VariantData[], options: CompareOptions = {}): MetricComparison {
  const baselines = variants.filter((v) => v.isBaseline);
  if (baselines.length !== 1) invalid(`exactly one variant must be the baseline, found ${baselines.length}`);
  const baseline = baselines[0] as VariantData;
  const described = describeMetric(metric, variants, options);
  const { alpha } = described;
  const method = options.mannWhitneyMethod ?? "auto";
  const sorted = new Map(variants.map((v) => [v.name, sortedCopy(v.replicates)]));
  const sortedOf = (v: VariantData) => sorted.get(v.name) as number[];
  const notes: string[] = [];

  const candidates = variants.filter((v) => !v.isBaseline);
  const tested = candidates.map((c) => test(baseline, c, sortedOf(baseline), sortedOf(c), alpha, method));
  const adjusted = holmAdjust(tested.map((t) => t.mannWhitney?.p ?? null));
  const family = adjusted.filter((p) => p !== null).length;
  if (family > 1) notes.push(`${family} candidates against ${baseline.name}: Mann-Whitney p-values adjusted with Holm's method`);

  const comparisons: CandidateComparison[] = tested.map((t, i) => {
    const weak = t.weak !== null;
    const p = adjusted[i] ?? null;
    const changeText = t.change.percent === null ? undefined : `median ${formatChange(t.change.percent)} vs ${baseline.name}`;
    const nBaseline = sortedOf(baseline).length;
    const nCandidate = sortedOf(t.variant).length;
    const decided = decideVerdict({
      direction: metric.direction,
      alpha,
      nBaseline,
      nCandidate,
      family: Math.max(1, family),
      p,
      candidateHigher: t.candidateHigher,
      changeText,
      // Within-run samples are many; the minimum number of runs does not apply to them.
      skipMinimum: weak,
      attainable: options.minimumRuns === "attainable",
    });
    const verdict = decided.verdict;
    let reason = decided.reason;
    if (weak) reason = `weak evidence, ${WEAK_REASON}; ${reason}`;
    else if (nBaseline === 1 && nCandidate === 1) reason += "; with one run per variant, within-run samples would allow a weak comparison";
    return {
      candidate: t.variant.name,
      baseline: baseline.name,
      nBaseline,
      nCandidate,
      change: t.change,
      mannWhitney: t.mannWhitney,
      welch: t.welch,
      // The p the verdict rests on: none when the test cannot decide with so few runs.
      pAdjusted: verdict === "insufficient_data" ? null : p,
      adjustment: family > 1 ? "holm" : "none",
      verdict,
      reason,
      evidence: verdict === "insufficient_data" ? null : weak ? "weak" : "strong",
      minReplicates: minReplicates(alpha, Math.max(1, family)),
      weak: t.weak,
    };
  });

  return { ...described, comparisons, notes };
}
