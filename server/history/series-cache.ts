// Recently read histories, per process, so panning and zooming over 10,000 commits does not
// aggregate 100,000 runs on every request. An entry is valid while its variant has the same
// number of runs: runs are only ever added (never edited; deleted only with their variant or
// experiment), so a new run — from any process — changes the count and the next read recomputes.
// The count is one index-only scan of the variant's runs.
import type { Db } from "../db/client";
import { commitSeriesOf, seriesBranches, type CommitPoint, type SeriesSubject } from "./commit-series";

interface Entry {
  runs: number;
  series: CommitPoint[];
  branches: { branch: string; commits: number }[];
}

const MAX_ENTRIES = 16;
const entries = new Map<string, Entry>();

export async function cachedSeries(db: Db, subject: SeriesSubject, branch: string | null): Promise<Omit<Entry, "runs">> {
  const [{ runs }] = await db.$queryRaw<[{ runs: number }]>`SELECT COUNT(*)::int AS "runs" FROM "Run" WHERE "variantId" = ${subject.variant.id}`;
  const key = `${subject.metric.id}\u0000${subject.metric.aggregation}\u0000${subject.variant.id}\u0000${branch ?? "\u0001all"}`;
  const hit = entries.get(key);
  if (hit && hit.runs === runs) {
    // Most recently used last: the first entry is the one to evict.
    entries.delete(key);
    entries.set(key, hit);
    return hit;
  }
  const [series, branches] = await Promise.all([commitSeriesOf(db, subject, branch), seriesBranches(db, subject.variant.id)]);
  entries.delete(key);
  entries.set(key, { runs, series, branches });
  while (entries.size > MAX_ENTRIES) entries.delete(entries.keys().next().value as string);
  return { series, branches };
}
