// The A/A check of the verdict procedure a batch's verdict uses: 30 seeded experiments, each the
// same variant run twice (two sides of 10 runs drawn from one distribution, skewed like latencies),
// judged by compareMetric with significance alone deciding (minimum change 0, the strictest
// case). A "worse" or "better" here is a false verdict; their rate must stay within α.
import { describe, expect, it } from "vitest";
import { compareMetric } from "./compare";
import { lognormalSamples } from "./prng";

const ALPHA = 0.05;
const EXPERIMENTS = 30;

describe("A/A: a variant against itself", () => {
  it(`gives at most α false worse/better verdicts across ${EXPERIMENTS} seeded experiments`, () => {
    const verdicts = Array.from({ length: EXPERIMENTS }, (_, i) => {
      const runs = lognormalSamples(20, { median: 100, sigma: 0.05, seed: 1000 + i });
      const result = compareMetric(
        { key: "latency", unit: "ms", direction: "lower_is_better" },
        [
          { name: "A", isBaseline: true, replicates: runs.slice(0, 10) },
          { name: "A again", isBaseline: false, replicates: runs.slice(10) },
        ],
        { alpha: ALPHA },
      );
      return result.comparisons[0]?.verdict;
    });
    const decided = verdicts.filter((verdict) => verdict === "worse" || verdict === "better").length;
    expect(verdicts.every((verdict) => verdict !== "insufficient_data")).toBe(true);
    // Seen: 1 of 30 with these seeds.
    expect(decided / EXPERIMENTS).toBeLessThanOrEqual(ALPHA);
  });
});
