import { describe, expect, it } from "vitest";
import { criticalOrder, estimateChange, hodgesLehmannShift } from "./change-ci";
import { sortedCopy } from "./descriptive";
import { close, fixtureJson } from "./fixtures/load";
import { mulberry32 } from "./prng";
import { kthPairwiseDifference, medianPairwiseDifference } from "./pairwise";

interface RCase {
  name: string;
  x: number[];
  y: number[];
  estimate: number;
  low: number;
  high: number;
  conf_level: number;
}
const rCases = fixtureJson<{ cases: RCase[] }>("r/hodges_lehmann.json").cases;
const logs = (v: number[]) => sortedCopy(v).map(Math.log);

describe("Hodges–Lehmann interval against R's wilcox.test(log x, log y, conf.int = TRUE)", () => {
  it.each(rCases.map((c) => [c.name, c] as const))("%s", (_name, c) => {
    const hl = hodgesLehmannShift(logs(c.x), logs(c.y), 0.95);
    expect(hl.method).toBe("exact");
    expect(close(hl.estimate, c.estimate, 1e-12, 1e-14), `estimate ${hl.estimate} vs ${c.estimate}`).toBe(true);
    expect(close(hl.low, c.low, 1e-12, 1e-14), `low ${hl.low} vs ${c.low}`).toBe(true);
    expect(close(hl.high, c.high, 1e-12, 1e-14), `high ${hl.high} vs ${c.high}`).toBe(true);
    // R reports the requested level, or 1 − signif(achieved α, 2) when it cannot be reached.
    if (c.conf_level < 0.95) expect(Number((1 - hl.confidence).toPrecision(2))).toBeCloseTo(1 - c.conf_level, 12);
    else expect(hl.confidence).toBeGreaterThanOrEqual(0.95);
  });

  it("reports the ratio form of the serializer interval", () => {
    const c = rCases.find((r) => r.name === "serializer_kotlinx_vs_spring") as RCase;
    const change = estimateChange(sortedCopy(c.y), sortedCopy(c.x), 0.95);
    expect(change.ciMethod).toBe("hodges_lehmann_log_ratio");
    expect(change.ratio).toBeCloseTo(2.887 / 3.019, 14);
    expect(change.ratioCi?.low).toBeCloseTo(Math.exp(c.low), 12);
    expect(change.ratioCi?.high).toBeCloseTo(Math.exp(c.high), 12);
    expect(change.percentCi?.high).toBeCloseTo((Math.exp(c.high) - 1) * 100, 10);
    expect(change.ciIncludesNoChange).toBe(false);
    expect(change.ciConfidence).toBeCloseTo(1 - 8 / 252, 14);
  });
});

describe("pairwise differences without building them", () => {
  it("select the same values as sorting all pairs", () => {
    const random = mulberry32(42);
    for (let trial = 0; trial < 60; trial++) {
      const n1 = 1 + Math.floor(random() * 25);
      const n2 = 1 + Math.floor(random() * 25);
      // Few distinct values on some trials, to exercise ties among the differences.
      const levels = trial % 3 === 0 ? 4 : 1e6;
      const gen = () => Math.floor(random() * levels) / 7;
      const x = sortedCopy(Array.from({ length: n1 }, gen));
      const y = sortedCopy(Array.from({ length: n2 }, gen));
      const all = x.flatMap((a) => y.map((b) => a - b)).sort((a, b) => a - b);
      for (const k of [1, Math.ceil(all.length / 3), Math.ceil(all.length / 2), all.length]) {
        expect(kthPairwiseDifference(x, y, k)).toBe(all[k - 1]);
      }
      const mid = all.length % 2 === 1 ? (all[(all.length - 1) / 2] as number) : ((all[all.length / 2 - 1] as number) + (all[all.length / 2] as number)) / 2;
      expect(medianPairwiseDifference(x, y)).toBe(mid);
    }
  });

  it("handle 10,000 × 10,000 samples quickly", () => {
    const random = mulberry32(7);
    const x = sortedCopy(Array.from({ length: 10_000 }, () => random()));
    const y = sortedCopy(Array.from({ length: 10_000 }, () => random() + 0.01));
    const started = performance.now();
    const hl = hodgesLehmannShift(x, y, 0.95);
    expect(performance.now() - started).toBeLessThan(2000);
    expect(hl.method).toBe("asymptotic");
    expect(hl.low).toBeLessThan(hl.estimate);
    expect(hl.estimate).toBeLessThan(hl.high);
    expect(hl.estimate).toBeCloseTo(-0.01, 1);
  });
});

describe("estimateChange", () => {
  it("falls back to shifts for values ≤ 0 and says when no ratio exists", () => {
    const shift = estimateChange([0, 1, 2, 3, 4], [1, 2, 3, 4, 5], 0.95);
    expect(shift.ciMethod).toBe("hodges_lehmann_shift");
    expect(shift.ratio).toBeCloseTo(1.5, 14);
    const none = estimateChange([-2, -1, 0, 0, 0], [1, 2, 3, 4, 5], 0.95);
    expect(none.ratio).toBeNull();
    expect(none.ratioCi).toBeNull();
    expect(none.reason).toMatch(/not meaningful/);
    expect(estimateChange([0, 0, 0], [0, 0, 0], 0.95)).toMatchObject({ ratio: 1, percent: 0 });
  });

  it("returns the widest interval with its confidence when the level is out of reach", () => {
    const crit = criticalOrder(2, 2, 0, 0.95);
    expect(crit).toEqual({ k: 1, confidence: 1 - 2 / 6, method: "exact" });
  });
});
