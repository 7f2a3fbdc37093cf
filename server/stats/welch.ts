// Welch's unequal-variances t-test, two-sided, matching scipy.stats.ttest_ind(x, y, equal_var=False).
// t = (mean(x) − mean(y)) / √(vx/nx + vy/ny), Welch–Satterthwaite df, p = 2·P(T_df > |t|) with
// the Student t CDF from @stdlib (regularized incomplete beta, Boost's algorithm).
// Reported next to the rank test because users expect it (mean ± sd tables); the verdict is the
// rank test's, as in benchstat.
import { mean, variance } from "./descriptive";
import { studentTTwoSidedP } from "./special";
import type { WelchSummary } from "./schemas";

export function welchTTest(x: readonly number[], y: readonly number[]): WelchSummary {
  const nx = x.length;
  const ny = y.length;
  if (nx < 2 || ny < 2) return { t: null, df: null, p: null, reason: `Welch's t-test needs ≥ 2 runs per variant (has ${nx} and ${ny})` };
  const vx = variance(x, 1) / nx;
  const vy = variance(y, 1) / ny;
  const se2 = vx + vy;
  if (!(se2 > 0)) return { t: null, df: null, p: null, reason: "both variants have zero variance: the t statistic is undefined" };
  const t = (mean(x) - mean(y)) / Math.sqrt(se2);
  const df = (se2 * se2) / ((vx * vx) / (nx - 1) + (vy * vy) / (ny - 1));
  return { t, df, p: studentTTwoSidedP(t, df), reason: null };
}
