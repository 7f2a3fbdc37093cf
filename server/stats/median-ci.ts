// Distribution-free confidence interval for the median from order statistics.
//
// The number of sample values below the population median is Binomial(n, 1/2), so the interval
// between the l-th and r-th order statistics covers the median with probability
// Σ_{k=l}^{r−1} C(n,k)/2ⁿ. This is a port of benchstat's choice of l and r (golang.org/x/perf
// benchmath → go-moremath stats.QuantileCI, q = 0.5): for n ≤ 30, start at the mode and add the
// more probable neighbour (left first on a tie) until the requested confidence is reached; for
// n > 30, the normal approximation with continuity correction, left-biased when that still
// reaches the level. The achieved confidence is reported (it is ≥ the requested one).
//
// Where benchstat gives up (n too small: it prints "± ∞" and "need >= 6 samples for confidence
// interval at level 0.95"), Versus returns the widest interval the sample has, [min, max], with
// its actual confidence 1 − 2·2⁻ⁿ, and marks reachedRequested = false.
import { medianSorted } from "./descriptive";
import type { MedianCiResult } from "./schemas";
import { normalCdf, normalQuantile } from "./special";

const EXACT_LIMIT = 30; // benchstat's quantileCIApproxThreshold

/** C(n, k) exactly, for n ≤ 60 (all values below 2⁵³). */
function choose(n: number, k: number): number {
  if (k < 0 || k > n) return 0;
  const kk = Math.min(k, n - k);
  let c = 1;
  for (let i = 1; i <= kk; i++) c = (c * (n - kk + i)) / i;
  return Math.round(c);
}

function binomialHalfPmf(n: number, k: number): number {
  if (k < 0 || k > n) return 0;
  return choose(n, k) / 2 ** n;
}

export interface MedianOrders {
  /** 1-based order statistics; 0 means −∞ and n + 1 means +∞ (benchstat's convention). */
  loOrder: number;
  hiOrder: number;
  confidence: number;
  ambiguous: boolean;
}

/** benchstat's order statistics for the median's CI at `confidence` with n values. */
export function medianCiOrders(n: number, confidence: number): MedianOrders {
  if (!Number.isInteger(n) || n < 0) throw new RangeError(`n must be a non-negative integer, got ${n}`);
  if (confidence >= 1) return { loOrder: 0, hiOrder: n + 1, confidence: 1, ambiguous: false };
  let l: number;
  let r: number;
  let achieved: number;
  let ambiguous = false;
  if (n <= EXACT_LIMIT) {
    const x = Math.ceil((n + 1) * 0.5) - 1;
    let accum = binomialHalfPmf(n, x);
    l = x;
    r = x + 1;
    let lp = binomialHalfPmf(n, l - 1);
    let rp = binomialHalfPmf(n, r);
    ambiguous = rp === accum;
    while (accum < confidence && (lp > 0 || rp > 0)) {
      ambiguous = lp === rp;
      if (lp >= rp) {
        accum += lp;
        l--;
        lp = binomialHalfPmf(n, l - 1);
      } else {
        accum += rp;
        r++;
        rp = binomialHalfPmf(n, r);
      }
    }
    achieved = accum;
  } else {
    const mu = n * 0.5;
    const sigma = Math.sqrt(n * 0.25);
    const l1 = normalQuantile((1 - confidence) / 2, mu, sigma);
    const r1 = 2 * mu - l1;
    l = Math.floor(Math.floor(l1 - 0.5) + 0.5) + 1;
    r = Math.floor(Math.ceil(r1 - 0.5) + 0.5) + 1;
    const cdf = (lo: number, hi: number) => normalCdf((hi - 0.5 - mu) / sigma) - normalCdf((lo - 0.5 - mu) / sigma);
    achieved = cdf(l, r);
    const biased = cdf(l, r - 1);
    if (biased >= confidence && biased < achieved) {
      achieved = biased;
      ambiguous = true;
      r = r - 1;
    }
    if (l <= 0 && r >= n + 1) {
      achieved = 1;
      ambiguous = false;
    }
  }
  return { loOrder: Math.max(l, 0), hiOrder: Math.min(r, n + 1), confidence: achieved, ambiguous };
}

/** Median and its CI for sorted values; null for an empty sample. */
export function medianCi(sorted: readonly number[], confidence = 0.95): (MedianCiResult & { median: number }) | null {
  const n = sorted.length;
  if (n === 0) return null;
  const orders = medianCiOrders(n, confidence);
  let { loOrder, hiOrder, confidence: achieved } = orders;
  const reached = loOrder >= 1 && hiOrder <= n;
  if (!reached) {
    // Widest interval the sample has: [x(1), x(n)], covering the median unless all n values
    // fall on one side of it.
    loOrder = 1;
    hiOrder = n;
    achieved = n === 1 ? 0 : 1 - 2 * 0.5 ** n;
  }
  const median = medianSorted(sorted);
  const low = sorted[loOrder - 1] as number;
  const high = sorted[hiOrder - 1] as number;
  return {
    median,
    low,
    high,
    confidence: achieved,
    requestedConfidence: confidence,
    reachedRequested: reached,
    lowOrder: loOrder,
    highOrder: hiOrder,
    halfWidthPercent: halfWidthPercent(median, low, high),
  };
}

/**
 * benchstat's "± x%" (Summary.PctRangeString): the larger distance from the center to a bound in
 * % of |center|; null where benchstat prints "?" (a bound's sign differs from the center's).
 */
export function halfWidthPercent(center: number, low: number, high: number): number | null {
  if (Math.sign(center) !== Math.sign(low) || Math.sign(center) !== Math.sign(high)) return null;
  if (center === 0) return 0;
  return (100 * Math.max(high - center, center - low)) / Math.abs(center);
}
