// Direction-aware verdict of one candidate against the baseline, from the Mann-Whitney test.
//
// Rules (benchstat's semantics, made direction-aware):
// - insufficient_data when a variant has fewer runs than the fewest with which the two-sided
//   U-test could ever reach p ≤ α. That minimum is computed from the exact distribution
//   (smallest n with 2 / C(2n, n) ≤ α: 4 at α = 0.05, because 3 vs 3 gives at best p = 0.1).
//   With several candidates, Holm's first step compares the smallest p with α / m, so the
//   minimum is computed at α / m (5 runs for 3 candidates at α = 0.05): below it no candidate
//   can ever be called better or worse, whatever the data.
//   A CI gate compares one commit's few runs with a pooled window of earlier commits' many
//   (`attainable`): there the rule is the exact one for the two sizes, the smallest p the test
//   can give, 2 / C(n1 + n2, n1), at most α / m (3 runs against 15 can reach p = 0.0025).
// - otherwise no_change when the (Holm-adjusted) p > α: benchstat prints "~" exactly then.
// - otherwise better or worse by the direction of the shift (U of the candidate above or below
//   n1·n2/2, i.e. the candidate's values tend to be higher or lower) and the metric's direction.
// The verdict does not additionally require the change's CI to exclude 1: benchstat's "~"
// depends on p alone, and the Hodges–Lehmann interval at 1 − α inverts the same test, so they
// agree except at the discreteness/tie/approximation margins; the result reports
// ciIncludesNoChange so the UI can show such a case.
import type { Direction, Verdict } from "./schemas";
import { formatP } from "./stat-text";
import { minReplicatesForAlpha, minTwoSidedP } from "./u-distribution";

/** Fewest runs per variant to resolve `family` candidates at level alpha (Holm's first step). */
export function minReplicates(alpha: number, family = 1): number {
  return minReplicatesForAlpha(alpha / Math.max(1, family));
}

export interface VerdictInput {
  direction: Direction;
  alpha: number;
  nBaseline: number;
  nCandidate: number;
  /** Number of candidates in the Holm family (1: no correction). */
  family: number;
  /** Adjusted p-value (raw when family is 1); null when no test could be run. */
  p: number | null;
  /** Candidate values tend to be higher than the baseline's (U above n1·n2/2). */
  candidateHigher: boolean;
  /** e.g. "median −4.37% vs baseline", put in front of the reason. */
  changeText?: string;
  /** Skip the minimum-runs rule (the single-run path compares many within-run samples). */
  skipMinimum?: boolean;
  /** The minimum-runs rule for these two sizes rather than per variant (see the top of this file). */
  attainable?: boolean;
}

export function decideVerdict(input: VerdictInput): { verdict: Verdict; reason: string } {
  const { direction, alpha, nBaseline, nCandidate, family, p } = input;
  const need = minReplicates(alpha, family);
  if (!input.skipMinimum && input.attainable) {
    const smallest = minTwoSidedP(nBaseline, nCandidate);
    if (smallest > alpha / family) {
      return {
        verdict: "insufficient_data",
        reason: `with ${nBaseline} and ${nCandidate} runs the U-test's smallest p is ${formatP(smallest)} > α = ${alpha / family}: more runs are needed`,
      };
    }
  } else if (!input.skipMinimum && (nBaseline < need || nCandidate < need)) {
    const why = family > 1 ? ` to resolve ${family} candidates at α = ${alpha} with Holm's correction` : ` for the U-test to reach α = ${alpha}`;
    return { verdict: "insufficient_data", reason: `needs ≥ ${need} runs per variant (has ${nBaseline} and ${nCandidate})${why}` };
  }
  if (p === null) return { verdict: "insufficient_data", reason: "no test could be run" };
  const pText = family > 1 ? `Mann-Whitney p = ${formatP(p)} (Holm-adjusted over ${family} candidates)` : `Mann-Whitney p = ${formatP(p)}`;
  const lead = input.changeText ? `${input.changeText}; ` : "";
  if (p > alpha) return { verdict: "no_change", reason: `${lead}${pText} > α = ${alpha}: no significant difference` };
  const better = direction === "lower_is_better" ? !input.candidateHigher : input.candidateHigher;
  const dirText = direction === "lower_is_better" ? "lower is better" : "higher is better";
  return { verdict: better ? "better" : "worse", reason: `${lead}${pText} ≤ α = ${alpha}; ${dirText}` };
}

/** The verdict seen from the other side (baseline and candidate swapped). */
export function flipVerdict(v: Verdict): Verdict {
  return v === "better" ? "worse" : v === "worse" ? "better" : v;
}
