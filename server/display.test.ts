import { describe, expect, it } from "vitest";
import { formatMeanSd, formatMeasure, formatMedianFigures, formatPercentile } from "./display";

describe("mean ± sd: both at the sd's second significant digit", () => {
  it("rounds the figures that used to sit in one column at different precisions", () => {
    // docs/examples.md case 5 (send time and message size): before, "3.078 ± 0.2037", "2.89 ± 0.04489", "190.3 ± 0.004472".
    expect(formatMeanSd(3.0776, 0.20374)).toEqual({ mean: "3.08", sd: "0.20" });
    expect(formatMeanSd(2.8898, 0.044888)).toEqual({ mean: "2.890", sd: "0.045" });
    expect(formatMeanSd(190.34, 0.0044721)).toEqual({ mean: "190.3400", sd: "0.0045" });
  });

  it("carries a rounding into the next digit (0.0996 is 0.10, not 0.100)", () => {
    expect(formatMeanSd(1.23456, 0.0996)).toEqual({ mean: "1.23", sd: "0.10" });
    expect(formatMeanSd(12.4, 9.96)).toEqual({ mean: "12", sd: "10" });
  });

  it("rounds to tens or thousands when the sd is large, thousands grouped", () => {
    expect(formatMeanSd(123456.7, 1234)).toEqual({ mean: "123,500", sd: "1,200" });
    expect(formatMeanSd(48.493, 12.3)).toEqual({ mean: "48", sd: "12" });
  });

  it("writes tiny and huge figures with an exponent", () => {
    expect(formatMeanSd(3.2e-6, 1.1e-7)).toEqual({ mean: "3.20e-6", sd: "1.1e-7" });
    expect(formatMeanSd(1.5e13, 2.34e10)).toEqual({ mean: "1.5000e+13", sd: "2.3e+10" });
  });

  it("keeps 4 significant digits for the mean without an sd (one run) or with sd 0", () => {
    expect(formatMeanSd(181.34789, null)).toEqual({ mean: "181.3", sd: null });
    expect(formatMeanSd(181.34789, 0)).toEqual({ mean: "181.3", sd: "0" });
    expect(formatMeanSd(null, null)).toEqual({ mean: "—", sd: null });
  });

  it("never writes more digits than a double holds", () => {
    expect(formatMeanSd(1e9, 1e-12).mean).toBe("1,000,000,000.000000");
  });
});

describe("median [CI], min and max: one decimal place from the nearer bound", () => {
  it("keeps the nearer bound's two significant digits (docs/examples.md case 5: SPRING_JSON)", () => {
    expect(formatMedianFigures({ median: 3.019, medianCi: { low: 2.947, high: 3.436 }, min: 2.947, max: 3.436 })).toEqual({
      median: "3.019", low: "2.947", high: "3.436", min: "2.947", max: "3.436", range: "2.947 … 3.436",
    });
  });

  it("pads and rounds every figure of the row alike", () => {
    expect(formatMedianFigures({ median: 102.5, medianCi: { low: 101.25, high: 110 }, min: 100.125, max: 120.4 })).toEqual({
      median: "102.5", low: "101.3", high: "110.0", min: "100.1", max: "120.4", range: "100.1 … 120.4",
    });
    expect(formatMedianFigures({ median: 2587.26, medianCi: { low: 2400, high: 2700 }, min: 2391.5, max: 2710 })).toEqual({
      median: "2,590", low: "2,400", high: "2,700", min: "2,390", max: "2,710", range: "2,390 … 2,710",
    });
  });

  it("shows no point interval and one value for equal runs, at 4 significant digits (one run, or equal runs)", () => {
    expect(formatMedianFigures({ median: 2587.26, medianCi: { low: 2587.26, high: 2587.26 }, min: 2587.26, max: 2587.26 })).toEqual({
      median: "2,587", low: null, high: null, min: "2,587", max: "2,587", range: "2,587",
    });
    expect(formatMedianFigures({ median: 2.0271, medianCi: null, min: 2.0271, max: 2.0271 })).toMatchObject({ median: "2.027", low: null, range: "2.027" });
  });

  it("takes the other bound when the median is one of them", () => {
    expect(formatMedianFigures({ median: 6.16, medianCi: { low: 6.16, high: 7.2 }, min: 6.16, max: 7.2 })).toMatchObject({ median: "6.2", low: "6.2", high: "7.2" });
  });

  it("has dashes for a variant without runs", () => {
    expect(formatMedianFigures({ median: null, medianCi: null, min: null, max: null })).toEqual({ median: "—", low: null, high: null, min: "—", max: "—", range: "—" });
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
