// Exact null distribution of the Mann-Whitney U statistic (no ties), cached per (n1, n2).
//
// The number of arrangements with U = u is the coefficient of q^u in the Gaussian binomial
// [n1+n2 choose m]_q = Π_{i=1..m} (1 − q^{n+i}) / (1 − q^i), m = min(n1, n2), n = max(n1, n2).
// Each factor is applied as "divide by (1 − q^i)" (a strided running sum) then "multiply by
// (1 − q^{n+i})"; after each pair the coefficients are those of a Gaussian binomial again, so
// they stay non-negative integers (exact below 2⁵³). Only u ≤ ⌊n1·n2/2⌋ is kept: the
// distribution is symmetric, and the operations never look at higher powers. Cost O(m · n1·n2).

// Bounded by bytes, not entries: the largest table (n1·n2 = 4,000,000) holds 32 MB, so 256 entries
// (the bound this replaced) could hold gigabytes, and a server whose experiments keep gaining runs
// meets a new (n1, n2) with almost every comparison.
const CACHE_BYTES = 64 * 2 ** 20;
const cache = new Map<string, { counts: Float64Array; cumulative: Float64Array; total: number }>();
let cachedBytes = 0;

/** Largest n1·n2 for which exact tables are built (about 8 × 250,000 or 2,000 × 2,000). */
export const EXACT_MAX_PRODUCT = 4_000_000;

/** Bytes the cached tables hold (never above 64 MB). */
export function cachedTableBytes(): number {
  return cachedBytes;
}

export function canComputeExact(n1: number, n2: number): boolean {
  return n1 >= 1 && n2 >= 1 && n1 * n2 <= EXACT_MAX_PRODUCT && Number.isFinite(binomial(n1 + n2, Math.min(n1, n2)));
}

/** C(n, k) as a double (exact for results below 2⁵³; Infinity past ~1e308). */
export function binomial(n: number, k: number): number {
  if (k < 0 || k > n) return 0;
  const kk = Math.min(k, n - k);
  let c = 1;
  for (let i = 1; i <= kk; i++) c = (c * (n - kk + i)) / i;
  return c < 2 ** 53 ? Math.round(c) : c;
}

function table(n1: number, n2: number) {
  const m = Math.min(n1, n2);
  const n = Math.max(n1, n2);
  const key = `${m},${n}`;
  const hit = cache.get(key);
  if (hit) return hit;
  if (!canComputeExact(n1, n2)) throw new RangeError(`exact U distribution for n1=${n1}, n2=${n2} is too large`);
  const half = Math.floor((m * n) / 2);
  const c = new Float64Array(half + 1);
  c[0] = 1;
  for (let i = 1; i <= m; i++) {
    for (let u = i; u <= half; u++) c[u] = (c[u] as number) + (c[u - i] as number);
    const shift = n + i;
    for (let u = half; u >= shift; u--) c[u] = (c[u] as number) - (c[u - shift] as number);
  }
  const total = binomial(m + n, m);
  const cumulative = new Float64Array(half + 1);
  let acc = 0;
  for (let u = 0; u <= half; u++) {
    acc += c[u] as number;
    cumulative[u] = acc;
  }
  const entry = { counts: c, cumulative, total };
  const bytes = c.byteLength + cumulative.byteLength;
  // Oldest first out (a Map iterates in insertion order) until the new table fits.
  for (const [oldest, old] of cache) {
    if (cachedBytes + bytes <= CACHE_BYTES) break;
    cache.delete(oldest);
    cachedBytes -= old.counts.byteLength + old.cumulative.byteLength;
  }
  cache.set(key, entry);
  cachedBytes += bytes;
  return entry;
}

/** P(U ≤ u) under the null hypothesis, exact, for integer u. */
export function uCdf(u: number, n1: number, n2: number): number {
  const nn = n1 * n2;
  const k = Math.floor(u);
  if (k < 0) return 0;
  if (k >= nn) return 1;
  const { cumulative, total } = table(n1, n2);
  const half = cumulative.length - 1;
  if (k <= half) return (cumulative[k] as number) / total;
  // Symmetry: P(U ≤ k) = 1 − P(U ≥ k + 1) = 1 − P(U ≤ nn − k − 1).
  return 1 - (cumulative[nn - k - 1] as number) / total;
}

/** Smallest two-sided p-value the exact test can produce with samples of n1 and n2. */
export function minTwoSidedP(n1: number, n2: number): number {
  if (n1 < 1 || n2 < 1) return 1;
  return Math.min(1, 2 / binomial(n1 + n2, n1));
}

/**
 * Fewest runs per variant (equal sizes) with which a two-sided U-test can reach p ≤ alpha:
 * the smallest n with 2 / C(2n, n) ≤ alpha (4 at alpha 0.05, as benchstat's uTestSamples).
 */
export function minReplicatesForAlpha(alpha: number): number {
  if (!(alpha > 0)) throw new RangeError(`alpha must be > 0, got ${alpha}`);
  for (let n = 1; n <= 200; n++) if (minTwoSidedP(n, n) <= alpha) return n;
  throw new RangeError(`alpha ${alpha} is too small for any practical number of runs`);
}

/**
 * P(U_x ≤ u) under the null hypothesis *given the tie pattern*: the exact conditional
 * distribution of the first sample's U (ties count one half) when the n1 + n2 values fall into
 * groups of equal values of sizes `groups` (in increasing value order). This is what benchstat's
 * U-test (go-moremath UDist with T) uses for samples with ties of up to 25 values per side.
 * Dynamic programming over the groups: state (values of x placed so far, 2·U so far).
 */
export function uCdfGivenTies(u: number, n1: number, n2: number, groups: readonly number[]): number {
  const twoUMax = 2 * n1 * n2;
  const width = twoUMax + 1;
  let dp = new Float64Array((n1 + 1) * width);
  dp[0] = 1;
  let before = 0; // values in earlier groups
  for (const t of groups) {
    const next = new Float64Array((n1 + 1) * width);
    for (let s = 0; s <= n1; s++) {
      for (let w = 0; w < width; w++) {
        const count = dp[s * width + w] as number;
        if (count === 0) continue;
        const yBelow = before - s;
        for (let r = 0; r <= t && s + r <= n1; r++) {
          if (t - r > n2 - yBelow) continue; // not enough y values left for the rest of the group
          const add = r * (2 * yBelow + (t - r));
          const idx = (s + r) * width + w + add;
          next[idx] = (next[idx] as number) + count * binomial(t, r);
        }
      }
    }
    dp = next;
    before += t;
  }
  const limit = Math.min(twoUMax, Math.floor(2 * u + 1e-9));
  let acc = 0;
  for (let w = 0; w <= limit; w++) acc += dp[n1 * width + w] as number;
  return acc / binomial(n1 + n2, n1);
}
