// The recorded values of stored results' histograms (the distribution chart's input), cached per
// result. A stored result's histogram never changes, so its id always decodes to the same values;
// decoding every run's histogram on every view of the experiment page was the largest part of the
// server's CPU under bench/load.ts. A new run adds a result (a miss), a deleted one drops out of
// the page's query; the oldest entries leave first once the values held pass MAX_VALUES.
import { recordedValues, type RecordedValues } from "../runs/histogram";

/** About 16 MB: two arrays of 8-byte numbers per result, a few hundred to a few thousand values each. */
const MAX_VALUES = 1_000_000;
const cache = new Map<string, RecordedValues>();
let held = 0;

/** The recorded values of result `resultId`, whose stored histogram is `histogram` at `scale`. */
export function cachedRecordedValues(resultId: string, histogram: Uint8Array, scale: number): RecordedValues {
  const key = `${resultId}:${scale}`;
  const hit = cache.get(key);
  if (hit) return hit;
  // Frozen: every reader shares them.
  const decoded = recordedValues(histogram, scale);
  const values: RecordedValues = Object.freeze({ values: Object.freeze(decoded.values) as number[], counts: Object.freeze(decoded.counts) as number[] });
  cache.set(key, values);
  held += values.values.length;
  // Oldest first out: a Map iterates in insertion order.
  for (const [oldest, entry] of cache) {
    if (held <= MAX_VALUES || oldest === key) break;
    cache.delete(oldest);
    held -= entry.values.length;
  }
  return values;
}
