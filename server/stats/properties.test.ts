// Property tests (fast-check): the verdict's symmetries.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compareMetric } from "./compare";
import type { Direction, Verdict } from "./schemas";
import { flipVerdict } from "./verdict";

// Values with at least 1e-3 relative spacing (k/10 for integers k), so that scaling cannot merge
// two distinct values into one double and the ranks stay what they were.
const value = fc.integer({ min: 1, max: 5000 }).map((k) => k / 10);
const runs = fc.array(value, { minLength: 2, maxLength: 12 });
const direction = fc.constantFrom<Direction>("lower_is_better", "higher_is_better");
const alpha = fc.constantFrom(0.05, 0.1, 0.01);

function verdicts(dir: Direction, variants: { name: string; values: number[] }[], baseline: string, a: number) {
  const r = compareMetric(
    { key: "m", unit: "ms", direction: dir },
    variants.map((v) => ({ name: v.name, isBaseline: v.name === baseline, replicates: v.values })),
    { alpha: a, noiseSplits: 10 },
  );
  return Object.fromEntries(r.comparisons.map((c) => [c.candidate, c.verdict]));
}

describe("verdict properties", () => {
  it("swapping baseline and candidate swaps better and worse (no_change and insufficient_data stay)", () => {
    fc.assert(
      fc.property(runs, runs, direction, alpha, (a, b, dir, al) => {
        const ab = verdicts(
          dir,
          [
            { name: "A", values: a },
            { name: "B", values: b },
          ],
          "A",
          al,
        ).B;
        const ba = verdicts(
          dir,
          [
            { name: "A", values: a },
            { name: "B", values: b },
          ],
          "B",
          al,
        ).A;
        expect(ba).toBe(flipVerdict(ab as Verdict));
      }),
      { numRuns: 300 },
    );
  });

  it("scaling every value by a positive constant changes no verdict", () => {
    fc.assert(
      fc.property(runs, runs, runs, direction, fc.constantFrom(1e-3, 0.37, 2, 1000, 86400), (a, b, c, dir, k) => {
        const variants = [
          { name: "A", values: a },
          { name: "B", values: b },
          { name: "C", values: c },
        ];
        const scaled = variants.map((v) => ({ ...v, values: v.values.map((x) => x * k) }));
        expect(verdicts(dir, scaled, "A", 0.05)).toEqual(verdicts(dir, variants, "A", 0.05));
      }),
      { numRuns: 200 },
    );
  });

  it("flipping the metric's direction swaps better and worse", () => {
    fc.assert(
      fc.property(runs, runs, alpha, (a, b, al) => {
        const variants = [
          { name: "A", values: a },
          { name: "B", values: b },
        ];
        const low = verdicts("lower_is_better", variants, "A", al).B;
        const high = verdicts("higher_is_better", variants, "A", al).B;
        expect(high).toBe(flipVerdict(low as Verdict));
      }),
      { numRuns: 300 },
    );
  });

  it("a clear shift with enough runs is never no_change, and its direction follows the metric", () => {
    fc.assert(
      fc.property(fc.array(value, { minLength: 6, maxLength: 10 }), direction, (a, dir) => {
        const shifted = a.map((x) => x + 1000);
        const v = verdicts(
          dir,
          [
            { name: "A", values: a },
            { name: "B", values: shifted },
          ],
          "A",
          0.05,
        ).B;
        expect(v).toBe(dir === "lower_is_better" ? "worse" : "better");
      }),
      { numRuns: 100 },
    );
  });
});
