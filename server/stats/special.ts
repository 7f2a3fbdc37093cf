// Special functions, from @stdlib (ports of Boost/FreeBSD/Cephes with ~1e-15 relative accuracy),
// wrapped in the tail forms the tests need so small p-values keep their relative precision.
import erfc from "@stdlib/math-base-special-erfc";
import normalQuantileStdlib from "@stdlib/stats-base-dists-normal-quantile";
import tCdf from "@stdlib/stats-base-dists-t-cdf";

/** P(Z > z) for a standard normal Z (scipy's `ndtr(-z)`), accurate far into the upper tail. */
export function normalSf(z: number): number {
  return 0.5 * erfc(z / Math.SQRT2);
}

/** P(Z ≤ z) for a standard normal Z. */
export function normalCdf(z: number): number {
  return 0.5 * erfc(-z / Math.SQRT2);
}

/** Inverse of the normal CDF with mean mu and standard deviation sigma. */
export function normalQuantile(p: number, mu = 0, sigma = 1): number {
  return normalQuantileStdlib(p, mu, sigma);
}

/** Two-sided p-value of Student's t statistic with df degrees of freedom: 2·P(T > |t|). */
export function studentTTwoSidedP(t: number, df: number): number {
  return Math.min(1, 2 * tCdf(-Math.abs(t), df));
}
