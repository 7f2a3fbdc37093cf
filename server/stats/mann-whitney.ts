// Two-sided Mann-Whitney U test, matching scipy.stats.mannwhitneyu(x, y,
// alternative="two-sided", use_continuity=True, method=...) to ~1e-12 relative.
//
// method "auto" follows scipy's rule (scipy/stats/_mannwhitneyu.py, _mwu_choose_method):
//   exact when at least one sample has ≤ 8 values AND there are no ties; asymptotic otherwise
//   (both samples > 8, or any tie).
// Exact:      p = 2 · P(U ≤ min(U1, U2)) from the exact null distribution, clipped to 1.
// Asymptotic: z = (max(U1, U2) − n1·n2/2 − 0.5) / σ, with the tie-corrected
//   σ² = n1·n2/12 · ((n + 1) − Σ(t³ − t) / (n(n − 1))); p = 2 · P(Z > z), clipped to 1.
//   When every value is tied, σ = 0 and p = 1 (scipy: z = −∞, p = 2 clipped to 1).
//
// benchstat differs in one regime: it uses the exact distribution up to 50 per side without ties
// and the exact conditional distribution *given the ties* up to 25 per side (go-moremath UDist),
// where scipy uses the normal approximation. With ≤ 8 values on a side and no ties both agree.
// method "benchstat" reproduces that rule (go-moremath MannWhitneyUTest(x, y, LocationDiffers)):
//   no ties, n1, n2 ≤ 50: exact; ties, n1, n2 ≤ 25: p = 2 · P(U_x ≤ min(U1, U2) | ties), 1 when
//   U1 = U2; otherwise the same normal approximation as scipy. With ties its p depends on which
//   sample is x (benchstat passes the baseline first).
import { normalSf } from "./special";
import { canComputeExact, uCdf, uCdfGivenTies } from "./u-distribution";

export type MannWhitneyMethod = "auto" | "exact" | "asymptotic" | "benchstat";

export interface MannWhitneyResult {
  /** U statistic of x (scipy's `statistic`): pairs with x > y, ties counting one half. */
  u: number;
  p: number;
  method: "exact" | "asymptotic";
  /** Standardised statistic (asymptotic method only). */
  z: number | null;
  ties: boolean;
  n1: number;
  n2: number;
}

/** scipy's choice of method for method="auto". */
export function chooseMethod(n1: number, n2: number, ties: boolean): "exact" | "asymptotic" {
  if (n1 > 8 && n2 > 8) return "asymptotic";
  if (ties) return "asymptotic";
  return "exact";
}

/** How the pooled values rank: what the test needs besides the rank sum of x. */
export interface PooledRanks {
  /** Mid-rank (1-based, ties averaged) of each pooled value, in the order the values were given. */
  ranks: Float64Array;
  tieTerm: number;
  ties: boolean;
  /** Sizes of the groups of equal values, in increasing value order. */
  groups: number[];
}

/**
 * Ranks a pooled sample once. The A/A noise estimate (noise.ts) splits one set of values into
 * halves many times: the ranks and ties of the pool are the same for every split, so only the
 * rank sum of a half changes.
 */
export function rankPooled(values: ArrayLike<number>): PooledRanks {
  const all = Float64Array.from(values);
  // Sort indices by value.
  const order = new Uint32Array(all.length);
  for (let i = 0; i < order.length; i++) order[i] = i;
  order.sort((a, b) => (all[a] as number) - (all[b] as number));
  const ranks = new Float64Array(all.length);
  let tieTerm = 0;
  let ties = false;
  const groups: number[] = [];
  for (let i = 0; i < order.length;) {
    const v = all[order[i] as number] as number;
    let j = i;
    while (j < order.length && all[order[j] as number] === v) j++;
    const t = j - i;
    groups.push(t);
    const avgRank = (i + 1 + j) / 2;
    for (let k = i; k < j; k++) ranks[order[k] as number] = avgRank;
    if (t > 1) {
      ties = true;
      tieTerm += t * t * t - t;
    }
    i = j;
  }
  return { ranks, tieTerm, ties, groups };
}

export function mannWhitneyU(x: readonly number[], y: readonly number[], method: MannWhitneyMethod = "auto"): MannWhitneyResult {
  const n1 = x.length;
  const n2 = y.length;
  if (n1 === 0 || n2 === 0) throw new RangeError("Mann-Whitney U needs at least one value in each sample");
  for (const v of [...x, ...y]) if (!Number.isFinite(v)) throw new RangeError(`Mann-Whitney U needs finite values, got ${v}`);
  const pooled = rankPooled([...x, ...y]);
  // Mid-ranks are multiples of ½, so this sum is exact in any order.
  let r1 = 0;
  for (let i = 0; i < n1; i++) r1 += pooled.ranks[i] as number;
  return mannWhitneyFromRanks(r1, n1, n2, pooled, method);
}

/**
 * The test from x's rank sum in a pool ranked by rankPooled (x: n1 of its values, y: the other
 * n2), for callers that rank one pool once and test many splits of it.
 */
export function mannWhitneyFromRanks(
  r1: number,
  n1: number,
  n2: number,
  pooled: Omit<PooledRanks, "ranks">,
  method: MannWhitneyMethod = "auto",
): MannWhitneyResult {
  const { tieTerm, ties, groups } = pooled;
  const u1 = r1 - (n1 * (n1 + 1)) / 2;
  const u2 = n1 * n2 - u1;
  const uMax = Math.max(u1, u2);
  if (method === "benchstat") {
    if (!ties && n1 <= 50 && n2 <= 50) {
      return { u: u1, p: u1 === u2 ? 1 : Math.min(1, 2 * uCdf(Math.min(u1, u2), n1, n2)), method: "exact", z: null, ties, n1, n2 };
    }
    if (ties && n1 <= 25 && n2 <= 25 && groups.length > 1) {
      const p = u1 === u2 ? 1 : Math.min(1, 2 * uCdfGivenTies(Math.min(u1, u2), n1, n2, groups));
      return { u: u1, p, method: "exact", z: null, ties, n1, n2 };
    }
  }
  const chosen = method === "auto" ? chooseMethod(n1, n2, ties) : method === "benchstat" ? "asymptotic" : method;
  if (chosen === "exact") {
    if (!canComputeExact(n1, n2)) throw new RangeError(`exact Mann-Whitney for n1=${n1}, n2=${n2} is too large; use "asymptotic"`);
    // scipy: sf(U) with U = max(U1, U2) cast to an integer, via the CDF at its complement.
    const k = Math.trunc(uMax);
    const p = Math.min(1, 2 * uCdf(n1 * n2 - k, n1, n2));
    return { u: u1, p, method: "exact", z: null, ties, n1, n2 };
  }
  const n = n1 + n2;
  const mu = (n1 * n2) / 2;
  const s = Math.sqrt(((n1 * n2) / 12) * (n + 1 - tieTerm / (n * (n - 1))));
  if (!(s > 0)) return { u: u1, p: 1, method: "asymptotic", z: null, ties, n1, n2 };
  const z = (uMax - mu - 0.5) / s;
  const p = Math.min(1, 2 * normalSf(z));
  return { u: u1, p, method: "asymptotic", z, ties, n1, n2 };
}
