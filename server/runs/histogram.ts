// HdrHistogram helpers. Histograms are stored in the V2 compressed encoding, which the JS, Go and
// Java implementations all read and write, so histograms from any agent merge exactly.
// HdrHistogram records integers; float values are recorded as round(value × scale).
import zlib from "node:zlib";
import * as hdr from "hdr-histogram-js";

export type Histogram = hdr.Histogram;
/** A histogram newHistogram made: the WebAssembly build, which also encodes itself uncompressed. */
export type RecordingHistogram = Histogram & { encode(): Uint8Array };

const SIGNIFICANT_DIGITS = 3;
/** Values at or above 10^3 units keep 3 significant digits; below that the resolution is 1 unit. */
const RESOLVED_FROM = 10 ** SIGNIFICANT_DIGITS;
/** The largest value recorded: well inside 2^53, where integers are exact. */
const LARGEST = Number.MAX_SAFE_INTEGER / 2;

let wasmReady = false;

/**
 * A histogram for recording at ingest. The WebAssembly build records about 5× faster than the
 * JS one (a million values in ~20 ms); call destroy() when done, it holds WASM memory.
 */
export function newHistogram(): RecordingHistogram {
  if (!wasmReady) {
    hdr.initWebAssemblySync();
    wasmReady = true;
  }
  return hdr.build({ bitBucketSize: 64, autoResize: true, numberOfSignificantValueDigits: SIGNIFICANT_DIGITS, useWebAssembly: true }) as RecordingHistogram;
}

/**
 * The power of ten that puts the smallest positive value at ≥ 1000 units, so every value keeps
 * 3 significant digits (≤ 0.1 % error) — but never so large that the maximum overflows 2^53.
 */
export function scaleFor(minPositive: number, max: number): number {
  if (!(minPositive > 0)) return 1;
  // In logarithms: RESOLVED_FROM / minPositive and LARGEST / max overflow for tiny values.
  const wanted = Math.ceil(Math.log10(RESOLVED_FROM) - Math.log10(minPositive));
  const fits = Math.floor(Math.log10(LARGEST) - Math.log10(max));
  // 10^±307 keeps the scale a finite, non-zero double whatever the values.
  let exponent = Math.max(-307, Math.min(307, wanted, fits));
  if (max * 10 ** exponent > LARGEST) exponent--; // the logarithms rounded up at the boundary
  return 10 ** exponent;
}

/**
 * The HdrHistogram of non-negative samples, encoded, with its percentiles in the samples' unit.
 * Recorded at `preferredScale` (the scale the metric's earlier runs used: histograms merge only at
 * one scale) whenever the largest value fits it, else at the scale for their range (scaleFor).
 */
export function samplesHistogram(
  samples: ArrayLike<number>,
  range: { minPositive: number; max: number },
  preferredScale?: number,
): Record<PercentileKey, number> & { histogram: Buffer; histogramScale: number } {
  const fits = preferredScale !== undefined && range.max * preferredScale <= LARGEST;
  const scale = fits ? preferredScale : scaleFor(range.minPositive, range.max);
  const histogram = newHistogram();
  try {
    const percentiles = recordScaled(histogram, samples, range.max, scale);
    return { ...percentiles, histogram: encodeHistogram(histogram), histogramScale: scale };
  } finally {
    histogram.destroy();
  }
}

// The V2 compressed encoding's first word (V2 cookie, word size 0x10); the second is the length of
// the zlib stream of the V2 encoding that follows.
const V2_COMPRESSED_COOKIE = 0x1c849314;

/**
 * The histogram in the V2 compressed encoding: the bytes of hdr-histogram-js's
 * encodeIntoCompressedBase64, assembled here instead of decoded back from its base64 text
 * (94 → about 50 µs for a histogram of a thousand values).
 */
export function encodeHistogram(histogram: RecordingHistogram): Buffer {
  const compressed = zlib.deflateSync(histogram.encode());
  const encoded = Buffer.allocUnsafe(8 + compressed.length);
  encoded.writeInt32BE(V2_COMPRESSED_COOKIE, 0);
  encoded.writeInt32BE(compressed.length, 4);
  compressed.copy(encoded, 8);
  return encoded;
}

/** The percentiles every summary gives, ascending. */
export const PERCENTILES = { p50: 50, p90: 90, p95: 95, p99: 99, p999: 99.9 } as const;
export type PercentileKey = keyof typeof PERCENTILES;

// HdrHistogram's layout for newHistogram's histograms (SIGNIFICANT_DIGITS, lowest discernible
// value 1): bucket 0 holds 0…2047 one by one, bucket b ≥ 1 holds 2^(b+10)…2^(b+11) − 1 in 1024 steps
// of 2^b, and a value's place in the counts array is b × 1024 + (value >> b).
const HALF_BUCKET_MAGNITUDE = Math.ceil(Math.log2(2 * RESOLVED_FROM)) - 1;
const HALF_BUCKET = 2 ** HALF_BUCKET_MAGNITUDE;
/** From this many values recordScaled counts them per place first; below, a counts array is more work than the calls. */
const COUNTED_FROM = 4096;

/** 2^-b for each bucket b: dividing by a power of two is exact, and a table lookup is cheaper than `**`. */
const BUCKET_UNIT_INVERSE = Float64Array.from({ length: 64 }, (_, bucket) => 2 ** -bucket);
const TWO_TO_32 = 2 ** 32;

/** The place of integer `value` (0 ≤ value < 2^53) in the counts array: from its highest set bit, found exactly. */
function placeOf(value: number): number {
  const highestBit = value < TWO_TO_32 ? 31 - Math.clz32(value) : 63 - Math.clz32(Math.floor(value / TWO_TO_32));
  const bucket = highestBit > HALF_BUCKET_MAGNITUDE ? highestBit - HALF_BUCKET_MAGNITUDE : 0;
  return bucket * HALF_BUCKET + Math.floor(value * (BUCKET_UNIT_INVERSE[bucket] as number));
}

/** The lowest value of a place (placeOf's inverse): recording it counts in that very place. */
function valueOfPlace(place: number): number {
  const bucket = Math.max(0, Math.floor(place / HALF_BUCKET) - 1);
  return (place - bucket * HALF_BUCKET) * 2 ** bucket;
}

/** The highest value of a place: what HdrHistogram's getValueAtPercentile answers for it (its highestEquivalentValue). */
function highestOfPlace(place: number): number {
  const bucket = Math.max(0, Math.floor(place / HALF_BUCKET) - 1);
  return (place - bucket * HALF_BUCKET + 1) * 2 ** bucket - 1;
}

/**
 * HdrHistogram's rank of a percentile among `total` values, the count at or below its value:
 * p % of the count rounded up, less one unit in the last place first, so that a product the
 * floating point left a hair above a whole number does not skip it (getValueAtPercentile's own).
 */
function rankOf(percentile: number, total: number): number {
  const exact = (percentile / 100) * total;
  return Math.max(1, Math.ceil(exact - 2 ** (Math.floor(Math.log2(exact)) - 52)));
}
/** PERCENTILES as [key, percentile] pairs, ascending. */
export const PERCENTILE_ENTRIES = Object.entries(PERCENTILES) as [PercentileKey, number][];

/**
 * The percentiles of places counted from place 0 (`counts[place]`), in one pass: the value of
 * each is the highest of the place where the running count first reaches its rank, as
 * getValueAtPercentile finds it — which instead walks the counts from the start once per percentile.
 */
function percentilesOfCounts(counts: ArrayLike<number>, total: number, scale: number): Record<PercentileKey, number> {
  const result = {} as Record<PercentileKey, number>;
  let place = 0;
  let running = counts[0] as number;
  // PERCENTILES ascend, so each rank is found further along the same walk.
  for (const [key, percentile] of PERCENTILE_ENTRIES) {
    const rank = rankOf(percentile, total);
    while (running < rank) running += counts[++place] as number;
    result[key] = highestOfPlace(place) / scale;
  }
  return result;
}

/**
 * Records round(sample × scale) for every sample (at least one, non-negative, the largest `max`)
 * and returns their percentiles in the samples' unit. Each value recorded in the WebAssembly build
 * is a call into it (a million: 38 ms); many values are counted here per place of the histogram
 * first, with HdrHistogram's own arithmetic, and each place is recorded once with its count (a few
 * thousand calls). The percentiles come from the places too: asking the histogram walked its
 * counts once per percentile, a fifth of the time spent summarising an upload's samples in a
 * profile under bench/load.ts. The counts, the encoding and the percentiles are the same
 * (histogram-recording.test.ts).
 */
export function recordScaled(histogram: Histogram, samples: ArrayLike<number>, max: number, scale: number): Record<PercentileKey, number> {
  const n = samples.length;
  if (n < COUNTED_FROM) {
    // Few values: recorded one by one, their places sorted (a counts array up to the largest place
    // would be longer than the values are many).
    const places = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const value = Math.round((samples[i] as number) * scale);
      histogram.recordValue(value);
      places[i] = placeOf(value);
    }
    places.sort();
    const result = {} as Record<PercentileKey, number>;
    for (const [key, percentile] of PERCENTILE_ENTRIES) result[key] = highestOfPlace(places[rankOf(percentile, n) - 1] as number) / scale;
    return result;
  }
  const counts = new Float64Array(placeOf(Math.round(max * scale)) + 1);
  for (let i = 0; i < n; i++) {
    const place = placeOf(Math.round((samples[i] as number) * scale));
    counts[place] = (counts[place] as number) + 1;
  }
  for (let place = 0; place < counts.length; place++) {
    const count = counts[place] as number;
    if (count > 0) histogram.recordValueWithCount(valueOfPlace(place), count);
  }
  return percentilesOfCounts(counts, n, scale);
}

/**
 * The exact merge of histograms recorded at one scale (V2 compressed encoding, base64), encoded
 * the same way: every bucket's count is the sum of the inputs' counts, so its percentiles are
 * those of one histogram of all the inputs' values.
 */
export function mergeEncodedHistograms(encoded: readonly string[]): string {
  const merged = hdr.build({ bitBucketSize: 64, autoResize: true, numberOfSignificantValueDigits: SIGNIFICANT_DIGITS });
  try {
    for (const item of encoded) merged.add(decodeHistogram(item));
    return hdr.encodeIntoCompressedBase64(merged);
  } finally {
    merged.destroy();
  }
}

export function decodeHistogram(bytes: Uint8Array | string): Histogram {
  const base64 = typeof bytes === "string" ? bytes : Buffer.from(bytes).toString("base64");
  return hdr.decodeFromCompressedBase64(base64, 64, false);
}

/** Distinct recorded values of one histogram with their counts, in the metric's unit. */
export interface RecordedValues {
  values: number[];
  counts: number[];
}

export function recordedValues(histogram: Uint8Array | string, scale: number): RecordedValues {
  // decodeHistogram returns the pure-JS implementation, which has the recorded-values iterator.
  const decoded = decodeHistogram(histogram) as unknown as hdr.JsHistogram;
  const values: number[] = [];
  const counts: number[] = [];
  const iterator = decoded.recordedValuesIterator;
  iterator.reset();
  while (iterator.hasNext()) {
    const step = iterator.next();
    // HdrHistogram keeps ranges of equivalent values; the middle of the range is its best estimate.
    values.push(decoded.medianEquivalentValue(step.valueIteratedTo) / scale);
    counts.push(step.countAddedInThisIterationStep);
  }
  return { values, counts };
}

/**
 * The summary of the values a histogram holds — each recorded value read as the middle of its
 * range of equivalent values, as HdrHistogram's own mean does — so that n, mean, sample sd, min,
 * max and the percentiles all describe one set of values (HdrHistogram's minimum is the low end
 * of its range and its maximum the high end, which, beside a mean of the middles, is a summary of
 * no set of values when a run has one request). Percentiles take HdrHistogram's rank: the
 * smallest value with at least p % of the count at or below it. Null for an empty histogram.
 */
export function histogramFigures(histogram: Uint8Array | string, scale: number) {
  const { values, counts } = recordedValues(histogram, scale);
  const n = counts.reduce((a, b) => a + b, 0);
  if (n === 0) return null;
  let mean = 0;
  let m2 = 0;
  let seen = 0;
  values.forEach((value, i) => {
    // Welford's update for a value repeated `count` times.
    const count = counts[i] as number;
    const delta = value - mean;
    seen += count;
    mean += (delta * count) / seen;
    m2 += delta * count * (value - mean);
  });
  const percentiles = {} as Record<PercentileKey, number>;
  for (const [key, percentile] of PERCENTILE_ENTRIES) {
    const rank = Math.max(1, Math.floor((percentile / 100) * n + 0.5));
    let cumulative = 0;
    const index = counts.findIndex((count) => (cumulative += count) >= rank);
    percentiles[key] = values[index] as number;
  }
  const min = values[0] as number;
  const max = values.at(-1) as number;
  return { n, mean: Math.min(max, Math.max(min, mean)), sd: n > 1 ? Math.sqrt(Math.max(0, m2) / (n - 1)) : 0, min, max, ...percentiles };
}
