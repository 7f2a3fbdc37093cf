import { describe, expect, it } from "vitest";
import type { VariantStats } from "../stats/schemas";
import { percentileFigure, type StoredPercentiles } from "./chart-percentiles";

const stats = (percentiles: VariantStats["percentiles"], n = 3): VariantStats => ({
  variant: "a",
  isBaseline: true,
  n,
  median: 1,
  medianCi: null,
  mean: 1,
  sd: null,
  sdKind: "sample",
  populationSd: null,
  cv: null,
  min: null,
  max: null,
  percentiles,
  notes: [],
});
const run = (p: Partial<StoredPercentiles>): StoredPercentiles => ({ p50: null, p90: null, p95: null, p99: null, p999: null, ...p });

describe("percentileFigure", () => {
  it("keeps the merged histogram percentiles when there are any, whatever the runs stored", () => {
    const merged = { count: 900, min: 1, max: 90, mean: 5, p50: 4, p90: 9, p95: 12, p99: 30, p999: 80 };
    expect(percentileFigure(stats(merged), [run({ p50: 100 })])).toEqual({
      variant: "a",
      source: "histograms",
      runs: 3,
      count: 900,
      p50: 4,
      p90: 9,
      p95: 12,
      p99: 30,
      p999: 80,
    });
  });

  it("otherwise takes per level the median of the runs that stored it; a level none stored stays null", () => {
    const figure = percentileFigure(stats(null), [run({ p50: 3, p99: 40 }), run({ p50: 1, p90: 7 }), run({ p50: 2, p99: 20 }), run({})]);
    expect(figure).toEqual({ variant: "a", source: "run summaries", runs: 3, count: null, p50: 2, p90: 7, p95: null, p99: 30, p999: null });
  });

  it("gives nothing when no run stored a percentile", () => {
    expect(percentileFigure(stats(null), [run({}), run({})])).toBeNull();
  });
});
