// The bar chart prints a variant's figure exactly as the comparison table does: the table said
// "420 [280, 520]" where the chart's label said "417 req/s", and 10,892 (B) where it said "10.6 KB".
import { describe, expect, it } from "vitest";
import { formatMedianFigures, meanSdText, medianText, withUnit } from "~/server/display/display";
import { barLabel, barTooltipLines } from "./bar-figures";

/** A variant as the comparison gives it to the table, and the bar the chart service makes of it. */
function variant(median: number, low: number, high: number, mean: number, sd: number) {
  const stats = { median, medianCi: { low, high }, min: low - 1, max: high + 1, mean, sd };
  const bar = { median, ciLow: low, ciHigh: high, ciConfidence: 0.9375, mean, sd, n: 5 };
  return { stats, bar };
}

/** What the table's median cell starts with (metric-comparison.tsx): the median in its unit. */
const tableMedian = (stats: ReturnType<typeof variant>["stats"], unit: string) => {
  const figures = formatMedianFigures(stats, unit);
  return withUnit(figures.median, figures);
};

describe("bar label and tooltip: the table's figures", () => {
  it("rounds a rate's median at its interval's precision, like the table", () => {
    const { stats, bar } = variant(417.3, 280, 520, 430.2, 95.4);
    expect(barLabel(bar, "ci", "req/s")).toBe("420 req/s");
    expect(barLabel(bar, "ci", "req/s")).toBe(tableMedian(stats, "req/s"));
    expect(barLabel(bar, "sd", "req/s")).toBe("430 req/s");
    expect(barTooltipLines(bar, "req/s")).toEqual(["median 420 req/s [280, 520] · 93.8% CI", `mean ${meanSdText(430.2, 95.4, "req/s")}`, "5 runs"]);
    expect(barTooltipLines(bar, "req/s")[0]).toBe(`median ${medianText(stats, "req/s")} · 93.8% CI`);
  });

  it("writes bytes in KiB in the label, the tooltip and the table alike", () => {
    const { stats, bar } = variant(10_892, 10_700, 11_020, 10_890, 120);
    expect(barLabel(bar, "ci", "B")).toBe("10.64 KiB");
    expect(barLabel(bar, "ci", "B")).toBe(tableMedian(stats, "B"));
    expect(barTooltipLines(bar, "B").slice(0, 2)).toEqual(["median 10.64 KiB [10.45, 10.76] · 93.8% CI", "mean 10.63 ± 0.12 KiB"]);
  });

  it("keeps a point without an interval at 4 significant digits (one run)", () => {
    const bar = { median: 2.0271, ciLow: null, ciHigh: null, ciConfidence: null, mean: 2.0271, sd: null, n: 1 };
    expect(barLabel(bar, "ci", "ms")).toBe("2.027 ms");
    expect(barTooltipLines(bar, "ms")).toEqual(["median 2.027 ms", "mean 2.027 ms", "1 run"]);
  });
});
