// The A/A estimate ranks each variant's values once and shuffles the ranks; it must call exactly
// what testing every split from scratch calls (the same draws, the same p-values).
import { describe, expect, it } from "vitest";
import { mannWhitneyU, type MannWhitneyMethod } from "./mann-whitney";
import { aaNoise } from "./noise";
import { mulberry32, shuffled } from "./prng";

/** The estimate the obvious way: shuffle the values, test the halves with mannWhitneyU. */
function splitFromScratch(values: number[], options: { alpha: number; seed: number; splits: number; method: MannWhitneyMethod }) {
  const random = mulberry32(options.seed);
  let count = 0;
  for (let s = 0; s < options.splits; s++) {
    const order = shuffled(values, random);
    const half = Math.floor(values.length / 2);
    if (mannWhitneyU(order.slice(0, half), order.slice(half), options.method).p <= options.alpha) count++;
  }
  return count / options.splits;
}

function seededValues(count: number, seed: number, distinct: number): number[] {
  const random = mulberry32(seed);
  // `distinct` levels: few levels make many ties, many levels none.
  return Array.from({ length: count }, () => 100 + Math.floor(random() * distinct) / 7);
}

describe("aaNoise", () => {
  const cases = [
    { name: "16 runs without ties", values: seededValues(16, 1, 1e9), method: "auto" as const },
    { name: "17 runs with ties", values: seededValues(17, 2, 5), method: "auto" as const },
    { name: "40 runs with ties (benchstat's exact rule given ties)", values: seededValues(40, 3, 6), method: "benchstat" as const },
    { name: "60 runs without ties (benchstat's exact rule)", values: seededValues(60, 4, 1e9), method: "benchstat" as const },
    { name: "900 runs (a history) with some ties", values: seededValues(900, 5, 400), method: "auto" as const },
    { name: "all values equal", values: Array.from({ length: 12 }, () => 3), method: "auto" as const },
  ];
  for (const { name, values, method } of cases) {
    it(`gives the rate of testing each split from scratch: ${name}`, () => {
      for (const alpha of [0.05, 0.2]) {
        const options = { alpha, seed: 7, splits: 150, method };
        const estimate = aaNoise([{ name: "v", replicates: values }], options);
        expect(estimate.variants[0]?.falsePositiveRate).toBe(splitFromScratch(values, options));
      }
    });
  }
});
