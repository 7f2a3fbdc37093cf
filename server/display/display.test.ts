import { describe, expect, it } from "vitest";
import {
  changeAndCi,
  changeCiText,
  formatChange,
  formatMeanSd,
  formatMeasure,
  formatMedianFigures,
  formatPercentile,
  formatPercentiles,
  meanSdText,
  medianText,
  rangeText,
  verdictP,
  verdictText,
  withUnit,
} from "./display";

describe("mean ± sd: both at the sd's second significant digit", () => {
  it("rounds the figures that used to sit in one column at different precisions", () => {
    // docs/examples.md case 5 (send time and message size): before, "3.078 ± 0.2037", "2.89 ± 0.04489", "190.3 ± 0.004472".
    expect(formatMeanSd(3.0776, 0.20374)).toMatchObject({ mean: "3.08", sd: "0.20" });
    expect(formatMeanSd(2.8898, 0.044888)).toMatchObject({ mean: "2.890", sd: "0.045" });
    expect(formatMeanSd(190.34, 0.0044721)).toMatchObject({ mean: "190.3400", sd: "0.0045" });
  });

  it("carries a rounding into the next digit (0.0996 is 0.10, not 0.100)", () => {
    expect(formatMeanSd(1.23456, 0.0996)).toMatchObject({ mean: "1.23", sd: "0.10" });
    expect(formatMeanSd(12.4, 9.96)).toMatchObject({ mean: "12", sd: "10" });
  });

  it("rounds to tens or thousands when the sd is large, thousands grouped", () => {
    expect(formatMeanSd(123456.7, 1234)).toMatchObject({ mean: "123,500", sd: "1,200" });
    expect(formatMeanSd(48.493, 12.3)).toMatchObject({ mean: "48", sd: "12" });
  });

  it("writes tiny and huge figures with an exponent", () => {
    expect(formatMeanSd(3.2e-6, 1.1e-7)).toMatchObject({ mean: "3.20e-6", sd: "1.1e-7" });
    expect(formatMeanSd(1.5e13, 2.34e10)).toMatchObject({ mean: "1.5000e+13", sd: "2.3e+10" });
  });

  it("keeps 4 significant digits for the mean without an sd (one run) or with sd 0", () => {
    expect(formatMeanSd(181.34789, null)).toMatchObject({ mean: "181.3", sd: null });
    expect(formatMeanSd(181.34789, 0)).toMatchObject({ mean: "181.3", sd: "0" });
    expect(formatMeanSd(null, null)).toMatchObject({ mean: "—", sd: null });
  });

  it("never writes more digits than a double holds", () => {
    expect(formatMeanSd(1e9, 1e-12).mean).toBe("1,000,000,000.000000");
  });
});

describe("median [CI], min and max: one decimal place from the nearer bound", () => {
  it("keeps the nearer bound's two significant digits (docs/examples.md case 5: SPRING_JSON)", () => {
    expect(formatMedianFigures({ median: 3.019, medianCi: { low: 2.947, high: 3.436 }, min: 2.947, max: 3.436 })).toMatchObject({
      median: "3.019",
      low: "2.947",
      high: "3.436",
      min: "2.947",
      max: "3.436",
      range: "2.947 … 3.436",
    });
  });

  it("pads and rounds every figure of the row alike", () => {
    expect(formatMedianFigures({ median: 102.5, medianCi: { low: 101.25, high: 110 }, min: 100.125, max: 120.4 })).toMatchObject({
      median: "102.5",
      low: "101.3",
      high: "110.0",
      min: "100.1",
      max: "120.4",
      range: "100.1 … 120.4",
    });
    expect(formatMedianFigures({ median: 2587.26, medianCi: { low: 2400, high: 2700 }, min: 2391.5, max: 2710 })).toMatchObject({
      median: "2,590",
      low: "2,400",
      high: "2,700",
      min: "2,390",
      max: "2,710",
      range: "2,390 … 2,710",
    });
  });

  it("shows no point interval and one value for equal runs, at 4 significant digits (one run, or equal runs)", () => {
    expect(formatMedianFigures({ median: 2587.26, medianCi: { low: 2587.26, high: 2587.26 }, min: 2587.26, max: 2587.26 })).toMatchObject({
      median: "2,587",
      low: null,
      high: null,
      min: "2,587",
      max: "2,587",
      range: "2,587",
    });
    expect(formatMedianFigures({ median: 2.0271, medianCi: null, min: 2.0271, max: 2.0271 })).toMatchObject({ median: "2.027", low: null, range: "2.027" });
  });

  it("writes counts without decimals when every figure is a whole number", () => {
    expect(formatMedianFigures({ median: 27, medianCi: { low: 27, high: 28 }, min: 27, max: 28 }, "count")).toMatchObject({
      median: "27",
      low: "27",
      high: "28",
      range: "27 … 28",
    });
    // A median between two runs is not a whole number: decimals as the interval asks.
    expect(formatMedianFigures({ median: 27.5, medianCi: { low: 27, high: 28 }, min: 27, max: 28 }, "count")).toMatchObject({ median: "27.50" });
  });

  it("takes the other bound when the median is one of them", () => {
    expect(formatMedianFigures({ median: 6.16, medianCi: { low: 6.16, high: 7.2 }, min: 6.16, max: 7.2 })).toMatchObject({
      median: "6.2",
      low: "6.2",
      high: "7.2",
    });
  });

  it("has dashes for a variant without runs", () => {
    expect(formatMedianFigures({ median: null, medianCi: null, min: null, max: null })).toMatchObject({
      median: "—",
      low: null,
      high: null,
      min: "—",
      max: "—",
      range: "—",
    });
  });
});

describe("merged percentiles and lone measurements", () => {
  it("gives a merged percentile the histograms' 3 significant digits", () => {
    expect(formatPercentile(2.7512)).toBe("2.75");
    expect(formatPercentile(41113)).toBe("41,100");
    expect(formatPercentile(0.000012345)).toBe("1.23e-5");
    expect(formatPercentile(null)).toBe("—");
  });

  it("keeps 4 significant digits for other measurements", () => {
    expect(formatMeasure(3.07764)).toBe("3.078");
    expect(formatMeasure(10659.9)).toBe("10,660");
  });
});

describe("figures with a unit: one scale for the median, its interval and the runs' range", () => {
  it("writes bytes in KiB, as the chart does (the table said 10,892 B where its chart said 10.6 KB)", () => {
    const stats = { median: 10_892, medianCi: { low: 10_700, high: 11_020 }, min: 10_650, max: 11_100 };
    expect(formatMedianFigures(stats, "B")).toMatchObject({ median: "10.64", low: "10.45", high: "10.76", unit: "KiB" });
    expect(medianText(stats, "B")).toBe("10.64 KiB [10.45, 10.76]");
    expect(rangeText(stats, "B")).toBe("10.40 … 10.84 KiB");
    expect(meanSdText(10_892, 120, "B")).toBe("10.64 ± 0.12 KiB");
  });

  it("rounds a rate's median once, at its nearer bound's second significant digit (table and chart said 420 and 417)", () => {
    const stats = { median: 417.3, medianCi: { low: 280, high: 520 } };
    expect(medianText(stats, "req/s")).toBe("420 req/s [280, 520]");
    // What the bar chart labels its bar with: the same figures, without the interval.
    const figures = formatMedianFigures(stats, "req/s");
    expect(withUnit(figures.median, figures)).toBe("420 req/s");
  });

  it("keeps every figure of a row in the median's unit when the interval crosses into the next", () => {
    expect(medianText({ median: 980, medianCi: { low: 950, high: 1_030 } }, "us")).toBe("980 µs [950, 1,030]");
    expect(medianText({ median: 0.5, medianCi: null }, "%")).toBe("0.5%");
  });

  it("writes three merged percentiles with one unit, or each with its own when they differ", () => {
    expect(formatPercentiles([2.7512, 15.71, 41.13], "ms")).toBe("2.75 / 15.7 / 41.1 ms");
    expect(formatPercentiles([0.9, 15.71, 41.13], "ms")).toBe("900 µs / 15.7 ms / 41.1 ms");
    expect(formatPercentiles([null, 3, 4], "")).toBe("— / 3.00 / 4.00");
  });
});

describe("changes: a percentage between −50% and +100%, a factor outside", () => {
  it("writes +40,914% as 410× (it said +40914.41%)", () => {
    expect(formatChange(40_914.41)).toBe("410×");
    expect(formatChange(100)).toBe("2×");
    expect(formatChange(134.56)).toBe("2.35×");
    expect(formatChange(123_456)).toBe("1,236×");
  });

  it("writes a decrease to half or less as a factor below 1", () => {
    expect(formatChange(-50)).toBe("0.5×");
    expect(formatChange(-88)).toBe("0.12×");
    expect(formatChange(-99.756)).toBe("0.00244×");
  });

  it("keeps a percentage with two decimals and a real minus sign inside the range", () => {
    expect(formatChange(-4.3712)).toBe("−4.37%");
    expect(formatChange(12)).toBe("+12.00%");
    expect(formatChange(-49.99)).toBe("−49.99%");
    expect(formatChange(0)).toBe("±0.00%");
    // Below −100% (a metric that can be negative) no factor is meaningful.
    expect(formatChange(-120)).toBe("−120.00%");
    expect(formatChange(null)).toBe("—");
  });

  it("writes a change and its interval in one style: factors when any of them is outside −50% … +100%", () => {
    expect(changeCiText({ low: -9.62, high: 150 })).toBe("[0.904×, 2.5×]");
    expect(changeAndCi(170, { low: -9.84, high: 392 })).toEqual({ change: "2.7×", ci: "[0.902×, 4.92×]" });
    expect(changeAndCi(15.88, { low: -34.13, high: 28.06 })).toEqual({ change: "+15.88%", ci: "[−34.13%, +28.06%]" });
    expect(changeAndCi(20, { low: 5, high: 150 })).toEqual({ change: "1.2×", ci: "[1.05×, 2.5×]" });
    // A bound at or below −100% has no factor: it stays a percentage.
    expect(changeAndCi(300, { low: -120, high: 500 })).toEqual({ change: "4×", ci: "[−120.00%, 6×]" });
    expect(changeAndCi(null, null)).toEqual({ change: "—", ci: "" });
  });
});

describe("no p beside not enough data", () => {
  const candidate = { pAdjusted: 0.1, mannWhitney: { u: 0, p: 0.1, method: "exact" as const, z: null, ties: false }, evidence: null };

  it("gives the verdict's p only when the verdict rests on it", () => {
    expect(verdictP({ ...candidate, verdict: "insufficient_data" })).toBeNull();
    expect(verdictP({ ...candidate, verdict: "no_change" })).toBe(0.1);
    expect(verdictP({ ...candidate, pAdjusted: null, verdict: "better" })).toBe(0.1);
  });

  it("words the verdict", () => {
    expect(verdictText({ verdict: "insufficient_data", evidence: null })).toBe("not enough data");
    expect(verdictText({ verdict: "better", evidence: "weak" })).toBe("better (weak evidence)");
  });
});
