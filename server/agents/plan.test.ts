// Batch order is what makes a comparison fair: both variants must meet the same drift.
import { describe, expect, it } from "vitest";
import { newSeed, planBatch } from "./plan";

const label = (job: { variant: string; warmup: boolean; repetition: number }) => `${job.warmup ? "w" : ""}${job.variant}${job.repetition}`;

describe("planBatch", () => {
  it("interleaves variants round by round, warm-ups first", () => {
    const jobs = planBatch({ variants: ["A", "B"], warmupRuns: 1, measuredRuns: 3, order: "interleaved", seed: 0 });
    expect(jobs.map(label)).toEqual(["wA0", "wB0", "A0", "B0", "A1", "B1", "A2", "B2"]);
    expect(jobs.map((job) => job.position)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });

  it("interleaves three variants as A B C A B C", () => {
    const jobs = planBatch({ variants: ["A", "B", "C"], warmupRuns: 0, measuredRuns: 2, order: "interleaved", seed: 0 });
    expect(jobs.map(label)).toEqual(["A0", "B0", "C0", "A1", "B1", "C1"]);
  });

  it("shuffles with the seed: the same seed gives the same order, another seed another one", () => {
    const plan = (seed: number) => planBatch({ variants: ["A", "B"], warmupRuns: 2, measuredRuns: 20, order: "random", seed }).map(label);
    expect(plan(42)).toEqual(plan(42));
    expect(plan(42)).not.toEqual(plan(43));
    // Still every job once, and still warm-ups before every measured run.
    const jobs = plan(42);
    expect([...jobs].sort()).toEqual(
      planBatch({ variants: ["A", "B"], warmupRuns: 2, measuredRuns: 20, order: "interleaved", seed: 0 })
        .map(label)
        .sort(),
    );
    expect(jobs.slice(0, 4).every((name) => name.startsWith("w"))).toBe(true);
    expect(jobs.slice(4).some((name) => name.startsWith("w"))).toBe(false);
    // And not simply the interleaved order.
    expect(jobs.slice(4)).not.toEqual(planBatch({ variants: ["A", "B"], warmupRuns: 0, measuredRuns: 20, order: "interleaved", seed: 0 }).map(label));
  });

  it("gives each variant repetitions 0 … n − 1, whatever the order", () => {
    const jobs = planBatch({ variants: ["A", "B"], warmupRuns: 0, measuredRuns: 5, order: "random", seed: 7 });
    for (const variant of ["A", "B"]) {
      expect(
        jobs
          .filter((job) => job.variant === variant)
          .map((job) => job.repetition)
          .sort(),
      ).toEqual([0, 1, 2, 3, 4]);
    }
  });

  it("makes nothing for zero runs of nothing", () => {
    expect(planBatch({ variants: [], warmupRuns: 3, measuredRuns: 3, order: "interleaved", seed: 0 })).toEqual([]);
  });
});

describe("newSeed", () => {
  it("stays a non-negative 31-bit integer at both ends of the random range", () => {
    expect(newSeed(() => 0)).toBe(0);
    expect(newSeed(() => 0.9999999999)).toBe(2 ** 31 - 1);
  });
});
