// recordScaled counts many values per place of the histogram before recording them, and finds the
// percentiles from those places: the histogram must be the one recording each value makes, byte
// for byte, and the percentiles the ones HdrHistogram answers for it, whatever the values' magnitudes.
import { describe, expect, it } from "vitest";
import { mulberry32 } from "../stats/prng";
import { encodeHistogram, newHistogram, PERCENTILE_ENTRIES, recordScaled, type Histogram, type PercentileKey } from "./histogram";

/** HdrHistogram's own answer, a percentile at a time, in the samples' unit. */
function percentilesOf(histogram: Histogram, scale: number): Record<PercentileKey, number> {
  return Object.fromEntries(PERCENTILE_ENTRIES.map(([key, percentile]) => [key, histogram.getValueAtPercentile(percentile) / scale])) as Record<
    PercentileKey,
    number
  >;
}

const oneByOne = (samples: number[], scale: number) => {
  const histogram = newHistogram();
  try {
    for (const sample of samples) histogram.recordValue(Math.round(sample * scale));
    return { bytes: encodeHistogram(histogram).toString("base64"), percentiles: percentilesOf(histogram, scale), count: histogram.totalCount };
  } finally {
    histogram.destroy();
  }
};

const counted = (samples: number[], scale: number) => {
  const histogram = newHistogram();
  try {
    const percentiles = recordScaled(
      histogram,
      samples,
      samples.reduce((a, b) => Math.max(a, b), 0),
      scale,
    );
    return { bytes: encodeHistogram(histogram).toString("base64"), percentiles, count: histogram.totalCount };
  } finally {
    histogram.destroy();
  }
};

describe("recordScaled", () => {
  const next = mulberry32(7);
  it.each([
    ["latencies in ms at scale 1000", Array.from({ length: 20_000 }, () => 0.2 + 40 * next() ** 3), 1000],
    ["zeros among small counts", Array.from({ length: 10_000 }, (_, i) => (i % 7 === 0 ? 0 : Math.floor(next() * 3000))), 1],
    ["every integer of the first buckets", Array.from({ length: 70_000 }, (_, i) => i), 1],
    [
      "powers of two and their neighbours",
      Array.from({ length: 52 * 3 * 40 }, (_, i) => 2 ** Math.floor(i / 120) + ((i % 3) - 1)).map((v) => Math.max(0, v)),
      1,
    ],
    ["values up to 2^52 across every magnitude", Array.from({ length: 30_000 }, () => Math.floor(2 ** (52 * next()))), 1],
    ["one value repeated", Array.from({ length: 5000 }, () => 123.456), 1000],
    ["fewer values than are counted first", Array.from({ length: 100 }, () => 5 + next()), 1000],
    ["one value", [42.5], 1000],
    ["two values far apart", [0, 2 ** 40], 1],
    ["the ends of the first buckets, few", [0, 1, 2046, 2047, 2048, 2049, 4094, 4095, 4096, 4097, 8191, 8192], 1],
    ["a thousand latencies, as an upload sends", Array.from({ length: 1000 }, () => 0.05 + 12 * next() ** 4), 1000],
    ["ranks that fall between values (999 values)", Array.from({ length: 999 }, (_, i) => i * 37), 1],
  ])("%s: the bytes and percentiles of recording each value", (_name, samples, scale) => {
    const expected = oneByOne(samples, scale);
    const actual = counted(samples, scale);
    expect(actual.count).toBe(samples.length);
    expect(actual.bytes).toBe(expected.bytes);
    expect(actual.percentiles).toEqual(expected.percentiles);
  });
});

describe("recordScaled's percentiles", () => {
  it("are HdrHistogram's for 300 sets of 1–2000 values of every spread, the counts' ranks rounded its way", () => {
    const next = mulberry32(11);
    for (let set = 0; set < 300; set++) {
      const n = 1 + Math.floor(next() ** 2 * 2000);
      const spread = 10 ** (6 * next());
      const samples = Array.from({ length: n }, () => (next() < 0.05 ? 0 : spread * next() ** 3));
      const scale = 10 ** Math.floor(4 * next());
      expect(counted(samples, scale).percentiles, `set ${set}: ${n} values`).toEqual(oneByOne(samples, scale).percentiles);
    }
  });
});
