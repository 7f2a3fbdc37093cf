// The minimum detectable effect of a comparison: the smallest true change of the median that
// the two-sided Mann-Whitney U test finds, at level α, with probability `power`, given n runs per
// side and the run-to-run spread σ measured on the same agent (an A/A batch). The normal
// approximation of the U test's power: its asymptotic relative efficiency against the t test is
// 3/π for normal data (Lehmann, Nonparametrics, 1975, §2.4), so it needs π/3 times the t test's
// runs: MDE = (z₁₋α/₂ + z_power) · σ · √(2 / (n · 3/π)). Below 4 runs a side the U test cannot
// reach p < 0.05 at all, so no effect is detectable (null).
import { normalQuantile } from "./special";

const U_TEST_ARE = 3 / Math.PI;
/** Fewest runs per side with which the two-sided U test can reach α = 0.05. */
export const MIN_RUNS_FOR_MDE = 4;

/** The MDE in the units of `sd`; null when `runs` cannot resolve anything. */
export function minimumDetectableEffect(sd: number, runs: number, alpha: number, power = 0.8): number | null {
  if (!Number.isFinite(sd) || sd < 0 || runs < MIN_RUNS_FOR_MDE) return null;
  const z = normalQuantile(1 - alpha / 2) + normalQuantile(power);
  return z * sd * Math.sqrt(2 / (runs * U_TEST_ARE));
}

/** Runs per side needed for the MDE to be at most `effect` (same units as `sd`). */
export function runsForEffect(sd: number, effect: number, alpha: number, power = 0.8): number {
  const z = normalQuantile(1 - alpha / 2) + normalQuantile(power);
  return Math.max(MIN_RUNS_FOR_MDE, Math.ceil((2 * (z * sd) ** 2) / (effect ** 2 * U_TEST_ARE)));
}

/**
 * The MDE of a comparison of n1 runs against n2 (same units as `sd`): the variance of the
 * difference goes as 1/n1 + 1/n2, so it is the MDE at the harmonic mean of the two sizes (n a side
 * when both are n); null when that is below 4.
 */
export function minimumDetectableEffectBetween(sd: number, n1: number, n2: number, alpha: number, power = 0.8): number | null {
  if (n1 <= 0 || n2 <= 0) return null;
  return minimumDetectableEffect(sd, 2 / (1 / n1 + 1 / n2), alpha, power);
}
