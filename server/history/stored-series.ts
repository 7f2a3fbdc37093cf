// A history's per-commit points, stored (the HistorySeries table) so that reading a metric's
// history over 10,000 commits × 10 runs is one row instead of an aggregate over 100,000 runs.
// The change-point refresh stores every series after runs with a commit arrive
// (change-point-store.ts); a read that finds its series missing or stale computes it
// (commit-series.ts) and stores it, so the next read is fast.
//
// Staleness, exactly: every transaction that inserts, changes or deletes one of a variant's runs
// or their results sets the variant's runsVersion to its own transaction id (triggers in
// prisma/migrations/20261126090000_history_series). A series is computed in one snapshot together
// with that version and stored with it; it is current exactly when the variant's runsVersion,
// read in the same statement as the stored row, is still that value and the metric's aggregation
// is the one it was computed with. So a read after an upload, import or agent run never shows
// the points from before it: it finds them stale and computes the series itself.
import type { Db } from "../db/client";
import { Prisma } from "../db/generated/client";
import { preparedQuery } from "../db/prepared-statements";
import { commitSeriesOf, seriesBranches, type CommitPoint, type SeriesSubject } from "./commit-series";
import { packFloat64, packUint32, unpackFloat64, unpackUint32 } from "./packed-numbers";

export interface SeriesBranch {
  branch: string;
  commits: number;
}

/** A series with the variant's branches, both as of the snapshot at `runsVersion`. */
export interface ComputedSeries {
  runsVersion: bigint;
  series: CommitPoint[];
  branches: SeriesBranch[];
}

interface Labels {
  commits: string[];
  branches: string[];
  messages: string[];
}

interface StoredRow {
  current: bigint;
  runsVersion: bigint | null;
  aggregation: string | null;
  labels: Labels;
  times: Buffer;
  medians: Buffer;
  ciLows: Buffer;
  ciHighs: Buffer;
  runCounts: Buffer;
  runValues: Buffer;
  branches: SeriesBranch[];
}

/** The series of (metric, variant, branch) as the runs are now: stored if current, else computed and stored. */
export async function currentSeries(db: Db, subject: SeriesSubject, branch: string | null): Promise<ComputedSeries> {
  const stored = await readStoredSeries(db, subject, branch);
  if (stored) return stored;
  const computed = await computeSeries(db, subject, branch);
  await storeSeries(db, subject, branch, computed);
  return computed;
}

/** The stored series when it is current (see the top of this file), else null. One statement on the pool (prepared). */
export async function readStoredSeries(db: Db, subject: SeriesSubject, branch: string | null): Promise<ComputedSeries | null> {
  const [row] = await preparedQuery<StoredRow>(db, Prisma.sql`
    SELECT v."runsVersion" AS "current", s."runsVersion", s."aggregation"::text AS "aggregation", s."labels", s."times", s."medians",
      s."ciLows", s."ciHighs", s."runCounts", s."runValues", s."branches"
    FROM "Variant" v
    LEFT JOIN "HistorySeries" s ON s."variantId" = v."id" AND s."metricId" = ${subject.metric.id} AND s."branch" = ${branch ?? ""}
    WHERE v."id" = ${subject.variant.id}`);
  if (!row || row.runsVersion === null || row.runsVersion !== row.current || row.aggregation !== subject.metric.aggregation) return null;
  return { runsVersion: row.runsVersion, series: pointsOf(row), branches: row.branches };
}

function pointsOf(row: StoredRow): CommitPoint[] {
  const { commits, branches, messages } = row.labels;
  const times = unpackFloat64(row.times);
  const medians = unpackFloat64(row.medians);
  const ciLows = unpackFloat64(row.ciLows);
  const ciHighs = unpackFloat64(row.ciHighs);
  const runCounts = unpackUint32(row.runCounts);
  const runValues = unpackFloat64(row.runValues);
  const points: CommitPoint[] = new Array(commits.length);
  let offset = 0;
  for (let i = 0; i < commits.length; i++) {
    const count = runCounts[i] as number;
    const message = messages[i] as string;
    points[i] = {
      commit: commits[i] as string,
      branch: (branches[i] as string) || null,
      time: new Date(times[i] as number),
      ...(message ? { message } : {}),
      runValues: Array.from(runValues.subarray(offset, offset + count)),
      median: medians[i] as number,
      ciLow: ciLows[i] as number,
      ciHigh: ciHighs[i] as number,
    };
    offset += count;
  }
  return points;
}

/** Computes the series, the variant's branches and its runsVersion in one snapshot (a repeatable-read transaction). */
export async function computeSeries(db: Db, subject: SeriesSubject, branch: string | null): Promise<ComputedSeries> {
  return db.$transaction(
    async (tx) => {
      const [version] = await tx.$queryRaw<{ runsVersion: bigint }[]>`SELECT "runsVersion" FROM "Variant" WHERE "id" = ${subject.variant.id}`;
      // A variant deleted meanwhile: nothing to store, and the series is empty.
      if (!version) return { runsVersion: -1n, series: [], branches: [] };
      const series = await commitSeriesOf(tx, subject, branch);
      const branches = await seriesBranches(tx, subject.variant.id);
      return { runsVersion: version.runsVersion, series, branches };
    },
    { isolationLevel: "RepeatableRead", timeout: 300_000, maxWait: 60_000 },
  );
}

/**
 * Stores a computed series, unless the variant's runs changed since it was computed (its
 * runsVersion moved on): such points would be stale on arrival and could replace fresher ones a
 * concurrent read or refresh stored.
 */
export async function storeSeries(db: Db, subject: SeriesSubject, branch: string | null, computed: ComputedSeries): Promise<void> {
  const { series } = computed;
  const labels: Labels = { commits: series.map((p) => p.commit), branches: series.map((p) => p.branch ?? ""), messages: series.map((p) => p.message ?? "") };
  await db.$executeRaw`
    INSERT INTO "HistorySeries" ("metricId", "variantId", "branch", "runsVersion", "aggregation", "commitCount", "labels", "times", "medians",
      "ciLows", "ciHighs", "runCounts", "runValues", "branches", "updatedAt")
    SELECT ${subject.metric.id}, ${subject.variant.id}, ${branch ?? ""}, ${computed.runsVersion}, ${subject.metric.aggregation}::"MetricAggregation",
      ${series.length}, ${JSON.stringify(labels)}::json, ${packFloat64(series.map((p) => p.time.getTime()))}, ${packFloat64(series.map((p) => p.median))},
      ${packFloat64(series.map((p) => p.ciLow))}, ${packFloat64(series.map((p) => p.ciHigh))}, ${packUint32(series.map((p) => p.runValues.length))},
      ${packFloat64(series.flatMap((p) => p.runValues))}, ${JSON.stringify(computed.branches)}::json, now()
    FROM "Variant" WHERE "id" = ${subject.variant.id} AND "runsVersion" = ${computed.runsVersion}
    ON CONFLICT ("metricId", "variantId", "branch") DO UPDATE SET
      "runsVersion" = EXCLUDED."runsVersion", "aggregation" = EXCLUDED."aggregation", "commitCount" = EXCLUDED."commitCount",
      "labels" = EXCLUDED."labels", "times" = EXCLUDED."times", "medians" = EXCLUDED."medians", "ciLows" = EXCLUDED."ciLows",
      "ciHighs" = EXCLUDED."ciHighs", "runCounts" = EXCLUDED."runCounts", "runValues" = EXCLUDED."runValues",
      "branches" = EXCLUDED."branches", "updatedAt" = now()`;
}
