// The gate's minimum change on one candidate comparison: only a significant verdict under the
// threshold turns into no change; the threshold itself counts; nothing else is touched.
import { describe, expect, it } from "vitest";
import type { CandidateComparison } from "../stats/schemas";
import { applyMinChange } from "./min-change";

function candidate(verdict: CandidateComparison["verdict"], percent: number | null): CandidateComparison {
  return { verdict, reason: "Mann-Whitney p = 0.001 ≤ α = 0.05", change: { percent } } as CandidateComparison;
}

describe("applyMinChange", () => {
  it("turns a significant change under the threshold, either way, into no change and says why", () => {
    for (const [verdict, percent] of [
      ["worse", 1.5],
      ["better", -1.99],
      ["worse", -0.5],
    ] as const) {
      const { candidate: gated, belowMinChange } = applyMinChange(candidate(verdict, percent), 2);
      expect(belowMinChange).toBe(true);
      expect(gated.verdict).toBe("no_change");
      expect(gated.reason).toMatch(/^Mann-Whitney p = 0\.001 ≤ α = 0\.05, but [+−]\d\.\d\d% is below the 2% minimum change: counted as no change$/);
    }
  });

  it("keeps a change at or above the threshold, every verdict that is not significant, and a change with no percentage", () => {
    for (const input of [
      candidate("worse", 2),
      candidate("better", -2.5),
      candidate("no_change", 0.1),
      candidate("insufficient_data", 0.1),
      candidate("worse", null),
    ]) {
      expect(applyMinChange(input, 2)).toEqual({ candidate: input, belowMinChange: false });
    }
    // 0: significance alone decides.
    expect(applyMinChange(candidate("worse", 0.01), 0).belowMinChange).toBe(false);
  });
});
