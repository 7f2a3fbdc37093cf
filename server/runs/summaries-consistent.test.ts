// The summaries the server makes itself — of raw samples, of a time series' points, of an
// HdrHistogram — keep the rules it holds every uploaded summary to (server/schemas/summary-rules.ts),
// whatever the values: a property test over random sets of values.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { summaryContradictions, type SummaryFigures } from "../schemas/summary-rules";
import { encodeHistogram, newHistogram } from "./histogram";
import { prepareMetric } from "./prepare-metric";
import { summarizeSamples } from "./summarize-samples";

const measurements = fc.array(
  fc.oneof(fc.double({ min: 0, max: 1e9, noNaN: true }), fc.integer({ min: 0, max: 100_000 }), fc.constantFrom(0, 1, 2049, 2050, 4097, 1e6 + 3)),
  { minLength: 1, maxLength: 300 },
);
const signed = fc.array(fc.double({ min: -1e6, max: 1e6, noNaN: true }), { minLength: 1, maxLength: 300 });

const figures = (s: Omit<SummaryFigures, "n"> & { n: number | bigint }): SummaryFigures => ({ ...s, n: Number(s.n) });

describe("the server's own summaries describe their values", () => {
  it("summarizeSamples: of any non-negative values (the histogram's percentiles stay within the exact min and max)", () => {
    fc.assert(
      fc.property(measurements, (values) => {
        const s = summarizeSamples(values);
        expect(summaryContradictions(figures(s)), JSON.stringify(values)).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });

  it("summarizeSamples: of any values, negative ones too", () => {
    fc.assert(
      fc.property(signed, (values) => {
        expect(summaryContradictions(figures(summarizeSamples(values))), JSON.stringify(values)).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });

  it("prepareMetric: a histogram alone, and a time series alone", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 1, max: 10_000_000 }), { minLength: 1, maxLength: 200 }), async (counts) => {
        const histogram = newHistogram();
        for (const value of counts) histogram.recordValue(value);
        const encoded = encodeHistogram(histogram).toString("base64");
        histogram.destroy();
        const fromHistogram = await prepareMetric({ key: "latency", histogram: encoded, histogramScale: 1000 }, ["metrics", 0], new Date(), new Map());
        expect(summaryContradictions(figures(fromHistogram.result)), JSON.stringify(counts)).toEqual([]);
        const fromSeries = await prepareMetric({ key: "throughput", timeSeries: { intervalMs: 1000, values: counts } }, ["metrics", 0], new Date(), new Map());
        expect(summaryContradictions(figures(fromSeries.result)), JSON.stringify(counts)).toEqual([]);
      }),
      { numRuns: 100 },
    );
  });
});
