// The CI gate's minimum change: a candidate is worse or better only when the U test found the
// change significant AND the change of the medians is at least `minChangePercent` either way.
// A significant change below it becomes no change, with the reason saying why, so the verdict,
// the Markdown tables and the exit code agree. A change with no percentage (a baseline median of
// 0) keeps the test's verdict: there is nothing to hold against the threshold.
import type { CandidateComparison } from "../stats/schemas";
import { formatChange } from "../display/display";

export function applyMinChange(candidate: CandidateComparison, minChangePercent: number): { candidate: CandidateComparison; belowMinChange: boolean } {
  const { percent } = candidate.change;
  if ((candidate.verdict !== "better" && candidate.verdict !== "worse") || percent === null || Math.abs(percent) >= minChangePercent)
    return { candidate, belowMinChange: false };
  const candidateBelow: CandidateComparison = {
    ...candidate,
    verdict: "no_change",
    reason: `${candidate.reason}, but ${formatChange(percent)} is below the ${minChangePercent}% minimum change: counted as no change`,
  };
  return { candidate: candidateBelow, belowMinChange: true };
}
