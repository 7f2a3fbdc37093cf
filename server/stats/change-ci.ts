// Change of a candidate against the baseline: ratio of medians with a confidence interval.
//
// Point estimate: candidate median / baseline median, the figure benchstat prints as "vs base"
// ((new/old − 1)·100 %). Interval: Hodges–Lehmann, by inverting the Mann-Whitney test, on the
// logarithms of the values (chosen over a bootstrap: deterministic, distribution-free, exact
// coverage under a shift model, and consistent with the U-test that decides the verdict). The
// pairwise differences log c_i − log b_j are pairwise log-ratios; the interval is
//   [d_(k), d_(n1·n2 + 1 − k)]  →  ratio [exp d_(k), exp d_(n1·n2 + 1 − k)],
// with k the largest order such that 2·P(U ≤ k − 1) ≤ 1 − confidence: from the exact U
// distribution when both samples have < 50 values and there are no ties (the rule of R's
// wilcox.test(conf.int = TRUE), whose intervals this matches), else the normal approximation with
// tie correction and continuity correction. The achieved confidence is reported; when even the
// widest interval (k = 1, all pairs) falls short, it is returned with its actual confidence.
// The Hodges–Lehmann point estimate (median pairwise ratio) is reported too. Scaling every
// value by a constant leaves all of this unchanged.
//
// Values ≤ 0 have no logarithm: then the shift version is used (differences c_i − b_j, the
// interval divided by the baseline median), and a ratio needs a positive baseline median.
import type { Change } from "./schemas";
import { medianSorted } from "./descriptive";
import { medianPairwiseDifference, kthPairwiseDifference } from "./pairwise";
import { normalQuantile, normalSf } from "./special";
import { canComputeExact, uCdf } from "./u-distribution";

export interface CriticalOrder {
  /** Lower bound is the k-th smallest pairwise difference, the upper the k-th largest. */
  k: number;
  confidence: number;
  method: "exact" | "asymptotic";
}

function tieTermOf(x: readonly number[], y: readonly number[]): number {
  const all = [...x, ...y].sort((a, b) => a - b);
  let term = 0;
  for (let i = 0; i < all.length;) {
    let j = i;
    while (j < all.length && all[j] === all[i]) j++;
    const t = j - i;
    term += t * t * t - t;
    i = j;
  }
  return term;
}

/** Order of the pairwise differences bounding a `confidence` interval for the shift. */
export function criticalOrder(n1: number, n2: number, tieTerm: number, confidence: number): CriticalOrder {
  const mn = n1 * n2;
  const alpha = 1 - confidence;
  const maxK = Math.floor((mn + 1) / 2);
  if (tieTerm === 0 && n1 < 50 && n2 < 50 && canComputeExact(n1, n2)) {
    let k = 0;
    while (k < maxK && 2 * uCdf(k, n1, n2) <= alpha) k++;
    k = Math.max(k, 1);
    return { k, confidence: 1 - 2 * uCdf(k - 1, n1, n2), method: "exact" };
  }
  const n = n1 + n2;
  const sigma = Math.sqrt((mn / 12) * (n + 1 - tieTerm / (n * (n - 1))));
  if (!(sigma > 0)) return { k: 1, confidence: 0, method: "asymptotic" };
  const z = normalQuantile(1 - alpha / 2);
  const k = Math.min(maxK, Math.max(1, Math.floor(mn / 2 + 0.5 - z * sigma)));
  return { k, confidence: 1 - 2 * normalSf((mn / 2 - (k - 0.5)) / sigma), method: "asymptotic" };
}

/** Hodges–Lehmann shift x − y with its interval (x, y sorted ascending). */
export function hodgesLehmannShift(x: readonly number[], y: readonly number[], confidence: number) {
  const crit = criticalOrder(x.length, y.length, tieTermOf(x, y), confidence);
  const mn = x.length * y.length;
  return {
    estimate: medianPairwiseDifference(x, y),
    low: kthPairwiseDifference(x, y, crit.k),
    high: kthPairwiseDifference(x, y, mn + 1 - crit.k),
    confidence: crit.confidence,
    method: crit.method,
  };
}

/** A change with nothing known yet; callers fill in the reason. */
export const emptyChange: Change = {
  ratio: null,
  percent: null,
  ratioCi: null,
  percentCi: null,
  ciConfidence: null,
  ciMethod: null,
  hodgesLehmannRatio: null,
  ciIncludesNoChange: null,
  reason: null,
};

const pct = (r: number) => (r - 1) * 100;

/** Change of `candidate` against `baseline` (both sorted ascending, non-empty). */
export function estimateChange(baseline: readonly number[], candidate: readonly number[], confidence: number): Change {
  if (baseline.length === 0 || candidate.length === 0) return { ...emptyChange, reason: "a variant has no runs" };
  const medB = medianSorted(baseline);
  const medC = medianSorted(candidate);
  let ratio: number | null = null;
  let reason: string | null = null;
  if (medB === medC) ratio = 1;
  else if (medB > 0) ratio = medC / medB;
  else reason = `the baseline median is ${medB}: a ratio to it is not meaningful`;

  const positive = (baseline[0] as number) > 0 && (candidate[0] as number) > 0;
  let lowR: number;
  let highR: number;
  let hl: number;
  let conf: number;
  if (positive) {
    const s = hodgesLehmannShift(candidate.map(Math.log), baseline.map(Math.log), confidence);
    [lowR, highR, hl, conf] = [Math.exp(s.low), Math.exp(s.high), Math.exp(s.estimate), s.confidence];
  } else if (medB > 0) {
    const s = hodgesLehmannShift(candidate, baseline, confidence);
    [lowR, highR, hl, conf] = [1 + s.low / medB, 1 + s.high / medB, 1 + s.estimate / medB, s.confidence];
  } else {
    return {
      ...emptyChange,
      ratio,
      percent: ratio === null ? null : pct(ratio),
      reason: reason ?? "values are not all positive and the baseline median is not positive: no interval for a ratio",
    };
  }
  return {
    ratio,
    percent: ratio === null ? null : pct(ratio),
    ratioCi: { low: lowR, high: highR },
    percentCi: { low: pct(lowR), high: pct(highR) },
    ciConfidence: conf,
    ciMethod: positive ? "hodges_lehmann_log_ratio" : "hodges_lehmann_shift",
    hodgesLehmannRatio: hl,
    ciIncludesNoChange: lowR <= 1 && highR >= 1,
    reason,
  };
}
