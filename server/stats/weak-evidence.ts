// A single run per variant (docs/examples.md case 1: 100 uploads per variant in one run): there are no
// replicates to compare, so the within-run samples are compared instead, with the same
// Mann-Whitney test (normal approximation at these sizes) and Hodges–Lehmann ratio. Samples
// inside one run are not independent (warm-up, GC, network state are shared), so the p-value is
// optimistic and the result is labelled weak evidence.
//
// Cost is bounded: each side is thinned deterministically to at most WEAK_SAMPLE_CAP samples
// before anything is sorted (every ⌈N/cap⌉-th sample in recorded order), so a run with a million
// requests never means sorting a million values.
import type { Change, MannWhitneySummary, WeakEvidence } from "./schemas";
import { estimateChange } from "./change-ci";
import { sortedCopy } from "./descriptive";
import { mannWhitneyU } from "./mann-whitney";

export const WEAK_SAMPLE_CAP = 10_000;
export const WEAK_REASON = "one run per variant: samples within a run are not independent";

/** Every ⌈N/cap⌉-th value of the runs' samples, in recorded order. */
export function thinSamples(runs: readonly (readonly number[])[], cap = WEAK_SAMPLE_CAP): { values: number[]; total: number } {
  const total = runs.reduce((s, r) => s + r.length, 0);
  const stride = Math.max(1, Math.ceil(total / cap));
  const values: number[] = [];
  let i = 0;
  for (const run of runs) {
    for (const v of run) {
      if (i % stride === 0) values.push(v);
      i++;
    }
  }
  return { values, total };
}

export interface WithinRunComparison {
  mannWhitney: MannWhitneySummary;
  change: Change;
  weak: WeakEvidence;
}

export function compareWithinRuns(
  baselineRuns: readonly (readonly number[])[],
  candidateRuns: readonly (readonly number[])[],
  confidence: number,
): WithinRunComparison | null {
  const b = thinSamples(baselineRuns);
  const c = thinSamples(candidateRuns);
  if (b.values.length === 0 || c.values.length === 0) return null;
  const mw = mannWhitneyU(c.values, b.values, "auto");
  const thinned = b.values.length < b.total || c.values.length < c.total;
  return {
    mannWhitney: { u: mw.u, p: mw.p, method: mw.method, z: mw.z, ties: mw.ties },
    change: estimateChange(sortedCopy(b.values), sortedCopy(c.values), confidence),
    weak: {
      baselineSamples: b.total,
      candidateSamples: c.total,
      baselineSamplesUsed: b.values.length,
      candidateSamplesUsed: c.values.length,
      note: `${WEAK_REASON}; compared ${b.values.length} baseline and ${c.values.length} candidate samples${thinned ? ` (thinned deterministically to ≤ ${WEAK_SAMPLE_CAP} per side)` : ""}`,
    },
  };
}
