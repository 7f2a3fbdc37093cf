// Result shapes of the comparison engine (compare.ts), for the REST/OpenAPI response and the UI.
// Every number is finite: where a figure cannot be computed it is null and a reason says why.
// The TypeScript types below are inferred from these schemas, so the engine and the API cannot
// drift apart.
import { z } from "zod";

const num = z.number();
const count = z.number().int().nonnegative();

export const ZDirection = z.enum(["lower_is_better", "higher_is_better"]);

export const ZMetricSpec = z.object({
  key: z.string(),
  unit: z.string(),
  direction: ZDirection,
});

/** Distribution-free CI for the median from order statistics (binomial), as benchstat computes it. */
export const ZMedianCi = z.object({
  low: num,
  high: num,
  /** Confidence actually achieved by the two order statistics (≥ requested when reached). */
  confidence: num,
  requestedConfidence: num,
  /** False when n is too small for the requested level: then [low, high] is [min, max]. */
  reachedRequested: z.boolean(),
  /** 1-based order statistics used for low and high. */
  lowOrder: count,
  highOrder: count,
  /** benchstat's "± x%": the larger distance from the median to a bound, in % of the median. */
  halfWidthPercent: num.nullable(),
});

/** Percentiles of the runs' HdrHistograms merged into one, in the histograms' recorded unit. */
export const ZMergedPercentiles = z.object({
  count: count,
  min: num,
  max: num,
  mean: num,
  p50: num,
  p90: num,
  p95: num,
  p99: num,
  p999: num,
});

export const ZVariantStats = z.object({
  variant: z.string(),
  isBaseline: z.boolean(),
  /** Number of runs (replicates). */
  n: count,
  median: num.nullable(),
  medianCi: ZMedianCi.nullable(),
  mean: num.nullable(),
  /** Sample standard deviation (divides by n − 1): the one Versus shows. */
  sd: num.nullable(),
  sdKind: z.literal("sample"),
  /** Population standard deviation (divides by n), for comparison with write-ups that use it. */
  populationSd: num.nullable(),
  /** Coefficient of variation: sample sd / |mean|. */
  cv: num.nullable(),
  min: num.nullable(),
  max: num.nullable(),
  percentiles: ZMergedPercentiles.nullable(),
  notes: z.array(z.string()),
});

export const ZInterval = z.object({
  low: num,
  high: num,
});

export const ZChange = z.object({
  /** Candidate median / baseline median (the figure benchstat prints as a percentage). */
  ratio: num.nullable(),
  /** (ratio − 1) · 100. Raw sign: whether it is better depends on the metric's direction. */
  percent: num.nullable(),
  /** Confidence interval of the ratio (Hodges–Lehmann, see ciMethod). */
  ratioCi: ZInterval.nullable(),
  percentCi: ZInterval.nullable(),
  /** Confidence actually achieved by the interval (the U distribution is discrete). */
  ciConfidence: num.nullable(),
  ciMethod: z.enum(["hodges_lehmann_log_ratio", "hodges_lehmann_shift"]).nullable(),
  /** Hodges–Lehmann point estimate of the ratio (median of pairwise ratios or shifts). */
  hodgesLehmannRatio: num.nullable(),
  /** True when the interval contains "no change" (ratio 1). */
  ciIncludesNoChange: z.boolean().nullable(),
  reason: z.string().nullable(),
});

export const ZMannWhitney = z.object({
  /** U of the candidate sample (scipy's statistic with the candidate as x). */
  u: num,
  p: num,
  method: z.enum(["exact", "asymptotic"]),
  /** Standardised statistic for the asymptotic method (null for exact). */
  z: num.nullable(),
  ties: z.boolean(),
});

export const ZWelch = z.object({
  t: num.nullable(),
  df: num.nullable(),
  p: num.nullable(),
  reason: z.string().nullable(),
});

export const ZVerdict = z.enum(["better", "worse", "no_change", "insufficient_data"]);

export const ZWeakEvidence = z.object({
  baselineSamples: count,
  candidateSamples: count,
  baselineSamplesUsed: count,
  candidateSamplesUsed: count,
  note: z.string(),
});

export const ZCandidateComparison = z.object({
  candidate: z.string(),
  baseline: z.string(),
  nBaseline: count,
  nCandidate: count,
  change: ZChange,
  mannWhitney: ZMannWhitney.nullable(),
  welch: ZWelch,
  /**
   * The p the verdict rests on: Mann-Whitney p after Holm's correction over all candidates of this
   * metric. null when the verdict is insufficient_data (the test cannot decide with so few runs;
   * its own figure stays in mannWhitney.p) or no test could be run.
   */
  pAdjusted: num
    .nullable()
    .describe(
      "the p the verdict rests on (Mann-Whitney, Holm-adjusted over the metric's candidates); null when the verdict is insufficient_data, where the test cannot decide with so few runs (mannWhitney.p keeps the test's own figure)",
    ),
  adjustment: z.enum(["holm", "none"]),
  verdict: ZVerdict,
  reason: z.string(),
  /** "strong": across-run replicates; "weak": within-run samples of single runs; null: no verdict. */
  evidence: z.enum(["strong", "weak"]).nullable(),
  /** Fewest runs per variant with which the U-test can reach significance here. */
  minReplicates: count,
  weak: ZWeakEvidence.nullable(),
});

export const ZRankingEntry = z.object({
  variant: z.string(),
  /** 1-based order by median, best first in the metric's direction. */
  position: count,
  /** 1 + number of variants whose median CI lies entirely on the better side of this one's. */
  rank: count.nullable(),
  median: num.nullable(),
  /** Variants whose median CI overlaps this one's: the order between them is not established. */
  tiedWith: z.array(z.string()),
});

export const ZNoiseVariant = z.object({
  variant: z.string(),
  n: count,
  falsePositiveRate: num.nullable(),
  splits: count,
  reason: z.string().nullable(),
});

export const ZNoiseEstimate = z.object({
  /** Fraction of A/A comparisons (random halves of one variant's runs) not judged no_change. */
  falsePositiveRate: num.nullable(),
  alpha: num,
  splitsPerVariant: count,
  seed: z.number().int(),
  variants: z.array(ZNoiseVariant),
  reason: z.string().nullable(),
  note: z.string(),
});

export const ZMetricComparison = z.object({
  metric: ZMetricSpec,
  alpha: num,
  /** Confidence level of the median intervals. */
  confidence: num,
  variants: z.array(ZVariantStats),
  comparisons: z.array(ZCandidateComparison),
  ranking: z.array(ZRankingEntry),
  noise: ZNoiseEstimate,
  notes: z.array(z.string()),
});

export type Direction = z.infer<typeof ZDirection>;
export type MedianCiResult = z.infer<typeof ZMedianCi>;
export type MergedPercentiles = z.infer<typeof ZMergedPercentiles>;
export type VariantStats = z.infer<typeof ZVariantStats>;
export type Change = z.infer<typeof ZChange>;
export type MannWhitneySummary = z.infer<typeof ZMannWhitney>;
export type WelchSummary = z.infer<typeof ZWelch>;
export type Verdict = z.infer<typeof ZVerdict>;
export type WeakEvidence = z.infer<typeof ZWeakEvidence>;
export type CandidateComparison = z.infer<typeof ZCandidateComparison>;
export type RankingEntry = z.infer<typeof ZRankingEntry>;
export type NoiseVariant = z.infer<typeof ZNoiseVariant>;
export type NoiseEstimate = z.infer<typeof ZNoiseEstimate>;
export type MetricComparison = z.infer<typeof ZMetricComparison>;
