// The MDE against the textbook figure: for the two-sample t test at α = 0.05 and 80 % power, a
// difference of 1 sd needs about 16 runs per side ((1.96 + 0.8416)² · 2 = 15.7); the U test needs
// π/3 times as many. And the claim itself, by simulation: normal runs shifted by the MDE are found
// different by the U test about 80 % of the time.
import { describe, expect, it } from "vitest";
import { mannWhitneyU } from "./mann-whitney";
import { minimumDetectableEffect, minimumDetectableEffectBetween, runsForEffect } from "./mde";
import { mulberry32, standardNormal } from "./prng";

describe("minimumDetectableEffect", () => {
  it("is the t test's 2.80 sd · √(2/n), widened by the U test's efficiency", () => {
    expect(minimumDetectableEffect(1, 16, 0.05)).toBeCloseTo(2.8016 * Math.sqrt(2 / 16) * Math.sqrt(Math.PI / 3), 3);
    expect(runsForEffect(1, 1, 0.05)).toBe(Math.ceil(15.7 * (Math.PI / 3)));
  });

  it("is null below 4 runs a side, where the U test can never reach α = 0.05", () => {
    expect(minimumDetectableEffect(1, 3, 0.05)).toBeNull();
    expect(minimumDetectableEffect(1, 4, 0.05)).not.toBeNull();
  });

  it("is found about 80 % of the time by the U test, simulated on normal runs", () => {
    const random = mulberry32(20261128);
    const normal = () => standardNormal(random);
    const runs = 20;
    const shift = minimumDetectableEffect(1, runs, 0.05) as number;
    let found = 0;
    const trials = 400;
    for (let t = 0; t < trials; t++) {
      const a = Array.from({ length: runs }, normal);
      const b = Array.from({ length: runs }, () => normal() + shift);
      if (mannWhitneyU(a, b).p <= 0.05) found++;
    }
    expect(found / trials).toBeGreaterThan(0.72);
    expect(found / trials).toBeLessThan(0.88);
  });
});

describe("minimumDetectableEffectBetween", () => {
  it("is the MDE at n a side when both sides have n, and at the harmonic mean of unequal sides", () => {
    expect(minimumDetectableEffectBetween(2, 8, 8, 0.05)).toBeCloseTo(minimumDetectableEffect(2, 8, 0.05) as number, 12);
    // 1/5 + 1/20 = 2/8: as wide as 8 against 8.
    expect(minimumDetectableEffectBetween(2, 5, 20, 0.05)).toBeCloseTo(minimumDetectableEffect(2, 8, 0.05) as number, 12);
    expect(minimumDetectableEffectBetween(2, 3, 3, 0.05)).toBeNull();
    expect(minimumDetectableEffectBetween(2, 0, 9, 0.05)).toBeNull();
  });
});
