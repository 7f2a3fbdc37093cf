// Order statistics of the n1·n2 pairwise differences x_i − y_j without building them: counting
// the differences ≤ t takes one merge-like pass over the two sorted arrays, O(n1 + n2). A
// bisection on t narrows the answer, and a last exact step returns the k-th difference itself
// (the same double that x_i − y_j evaluates to), so results equal sorting all pairs, at
// O((n1 + n2) · ~100) instead of O(n1·n2 · log) time and no n1·n2 memory.

/** Number of pairs with x_i − y_j ≤ t (x and y sorted ascending). */
export function countDifferencesAtMost(x: readonly number[], y: readonly number[], t: number): number {
  const n2 = y.length;
  let j = 0; // first j with x_i − y_j ≤ t (y ascending ⇒ x_i − y_j descending in j)
  let count = 0;
  for (const xi of x) {
    // As x_i grows, the first qualifying j can only move right.
    while (j < n2 && xi - (y[j] as number) > t) j++;
    count += n2 - j;
  }
  return count;
}

/** Smallest pairwise difference strictly greater than t, or null if none. */
function smallestDifferenceAbove(x: readonly number[], y: readonly number[], t: number): number | null {
  const n2 = y.length;
  let best: number | null = null;
  // For fixed x_i the differences with d > t form a prefix j ≤ J (y ascending); the smallest of
  // them is at J, and J can only move right as x_i grows.
  let j = -1;
  for (const xi of x) {
    while (j + 1 < n2 && xi - (y[j + 1] as number) > t) j++;
    if (j >= 0) {
      const d = xi - (y[j] as number);
      if (best === null || d < best) best = d;
    }
  }
  return best;
}

/** k-th smallest (1-based) of x_i − y_j over all pairs; x and y sorted ascending. */
export function kthPairwiseDifference(x: readonly number[], y: readonly number[], k: number): number {
  const total = x.length * y.length;
  if (!Number.isInteger(k) || k < 1 || k > total) throw new RangeError(`k must be in 1..${total}, got ${k}`);
  const minD = (x[0] as number) - (y[y.length - 1] as number);
  const maxD = (x[x.length - 1] as number) - (y[0] as number);
  if (countDifferencesAtMost(x, y, minD) >= k) return minD;
  // Invariant: count(lo) < k ≤ count(hi).
  let lo = minD;
  let hi = maxD;
  for (let iter = 0; iter < 200; iter++) {
    const mid = lo + (hi - lo) / 2;
    if (mid <= lo || mid >= hi) break;
    if (countDifferencesAtMost(x, y, mid) >= k) hi = mid;
    else lo = mid;
  }
  // The answer is the smallest difference above lo for which the count reaches k.
  for (;;) {
    const next = smallestDifferenceAbove(x, y, lo);
    if (next === null) return hi;
    if (countDifferencesAtMost(x, y, next) >= k) return next;
    lo = next;
  }
}

/** Median of all pairwise differences x_i − y_j (the Hodges–Lehmann shift estimate). */
export function medianPairwiseDifference(x: readonly number[], y: readonly number[]): number {
  const total = x.length * y.length;
  if (total % 2 === 1) return kthPairwiseDifference(x, y, (total + 1) / 2);
  return (kthPairwiseDifference(x, y, total / 2) + kthPairwiseDifference(x, y, total / 2 + 1)) / 2;
}
