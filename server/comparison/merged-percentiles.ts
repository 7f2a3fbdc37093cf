// Percentiles merged from the runs' HdrHistograms, cached per (metric, variant, set of results).
// Stored results never change, so a set of result ids always merges to the same percentiles;
// decoding and merging 200 histograms on every page view was two thirds of a comparison's time
// (bench/comparison.ts). A new or deleted run changes the set, and with it the key.
//
// A new run must not remerge the runs before it either: each group names its lineage (the
// variant and metric whose runs it holds), and the last merge of a lineage is kept whole. When
// the next set holds every result of that merge, only the new results' histograms are read and
// added to it; a set without one of them (a deleted run) is merged afresh. Adding counts into
// buckets, the grown merge has exactly the counts of a merge of the whole set (histogram.ts).
import type { Histogram } from "hdr-histogram-js";
import type { Db } from "../db/client";
import { unscale } from "../stats/compare";
import { addHistograms, emptyMerge, percentilesOf } from "../stats/histogram";
import type { MergedPercentiles } from "../stats/schemas";

const MAX_ENTRIES = 2000;
const cache = new Map<string, MergedPercentiles | null>();

/** A merge is a few hundred kB of bucket counts: keep the last merge of this many lineages. */
const MAX_MERGES = 64;
const merges = new Map<string, { scale: number; resultIds: Set<string>; histogram: Histogram }>();

export interface HistogramGroup {
  /** Result rows whose histograms merge into one; all recorded at `scale`. */
  resultIds: string[];
  scale: number;
  /** Whose runs these are (a variant's, of one metric): a later set of the same lineage grows from this one's merge. */
  lineage?: string;
}

const keyOf = (group: HistogramGroup) => `${group.scale}:${[...group.resultIds].sort().join(",")}`;

/** Merged percentiles per group (in the groups' order); histograms are read only on a cache miss, and only those not merged yet. */
export async function mergedPercentiles(db: Db, groups: HistogramGroup[]): Promise<(MergedPercentiles | null)[]> {
  const bytes = new Map<string, Uint8Array | null>();
  // Which histograms a group still needs depends on its lineage's merge, which another read may
  // grow while this one waits for the database: look again after every read.
  looking: for (;;) {
    const missing = groups.filter((group) => !cache.has(keyOf(group)));
    const unread = [...new Set(missing.flatMap(toAdd))].filter((id) => !bytes.has(id));
    if (unread.length) {
      const rows = await db.runMetricResult.findMany({ where: { id: { in: unread } }, select: { id: true, histogram: true } });
      for (const id of unread) bytes.set(id, null);
      for (const row of rows) bytes.set(row.id, row.histogram);
      continue;
    }
    // Synchronous from here: no other read changes a merge between the look and the add.
    for (const group of missing) {
      const adding = toAdd(group);
      if (adding.some((id) => !bytes.has(id))) continue looking;
      remember(keyOf(group), merge(group, adding, bytes));
    }
    return groups.map((group) => cache.get(keyOf(group)) ?? null);
  }
}

/** The lineage's last merge when `group` holds every result of it (at the same scale). */
function growable(group: HistogramGroup) {
  const last = group.lineage === undefined ? undefined : merges.get(group.lineage);
  if (!last || last.scale !== group.scale) return undefined;
  const ids = new Set(group.resultIds);
  for (const id of last.resultIds) if (!ids.has(id)) return undefined;
  return last;
}

/** The results whose histograms `group` still needs: those its lineage's merge lacks, or all. */
function toAdd(group: HistogramGroup): string[] {
  const grown = growable(group);
  return grown ? group.resultIds.filter((id) => !grown.resultIds.has(id)) : group.resultIds;
}

function merge(group: HistogramGroup, adding: string[], bytes: Map<string, Uint8Array | null>): MergedPercentiles | null {
  const histograms = adding.map((id) => bytes.get(id)).filter((h): h is Uint8Array<ArrayBuffer> => Boolean(h));
  // A result without its histogram (deleted meanwhile): no merged percentiles for this set.
  if (histograms.length !== adding.length) return null;
  const histogram = growable(group)?.histogram ?? emptyMerge();
  try {
    addHistograms(histogram, histograms);
  } catch (error) {
    // Part of the histograms may have been added: that merge no longer holds what it says.
    if (group.lineage !== undefined) merges.delete(group.lineage);
    throw error;
  }
  if (group.lineage !== undefined) {
    merges.delete(group.lineage);
    if (merges.size >= MAX_MERGES) merges.delete(merges.keys().next().value as string);
    merges.set(group.lineage, { scale: group.scale, resultIds: new Set(group.resultIds), histogram });
  }
  return unscale(percentilesOf(histogram), group.scale);
}

function remember(key: string, value: MergedPercentiles | null) {
  // Oldest first out: Map iterates in insertion order.
  if (cache.size >= MAX_ENTRIES) cache.delete(cache.keys().next().value as string);
  cache.set(key, value);
}
