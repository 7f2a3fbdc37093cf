// Percentiles merged from the runs' HdrHistograms, cached per (metric, variant, set of results).
// Stored results never change, so a set of result ids always merges to the same percentiles;
// decoding and merging 200 histograms on every page view was two thirds of a comparison's time
// (bench/comparison.ts). A new or deleted run changes the set, and with it the key.
import type { Db } from "../db/client";
import { unscale } from "../stats/compare";
import { mergeHistograms } from "../stats/histogram";
import type { MergedPercentiles } from "../stats/schemas";

const MAX_ENTRIES = 2000;
const cache = new Map<string, MergedPercentiles | null>();

export interface HistogramGroup {
  /** Result rows whose histograms merge into one; all recorded at `scale`. */
  resultIds: string[];
  scale: number;
}

const keyOf = (group: HistogramGroup) => `${group.scale}:${[...group.resultIds].sort().join(",")}`;

/** Merged percentiles per group (in the groups' order); histograms are read only on a cache miss. */
export async function mergedPercentiles(db: Db, groups: HistogramGroup[]): Promise<(MergedPercentiles | null)[]> {
  const missing = groups.filter((group) => !cache.has(keyOf(group)));
  if (missing.length) {
    const rows = await db.runMetricResult.findMany({
      where: { id: { in: missing.flatMap((group) => group.resultIds) } },
      select: { id: true, histogram: true },
    });
    const bytes = new Map(rows.map((row) => [row.id, row.histogram]));
    for (const group of missing) {
      const histograms = group.resultIds.map((id) => bytes.get(id)).filter((h): h is Uint8Array<ArrayBuffer> => Boolean(h));
      const merged = histograms.length === group.resultIds.length ? unscale(mergeHistograms(histograms), group.scale) : null;
      remember(keyOf(group), merged);
    }
  }
  return groups.map((group) => cache.get(keyOf(group)) ?? null);
}

function remember(key: string, value: MergedPercentiles | null) {
  // Oldest first out: Map iterates in insertion order.
  if (cache.size >= MAX_ENTRIES) cache.delete(cache.keys().next().value as string);
  cache.set(key, value);
}
