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

/**
 * A series column by column (index i is the i-th commit): what a read decodes without building
 * an object per commit, since a history page shows a few hundred of 10,000 (pointAt, pointsOf).
 */
export interface SeriesColumns {
  commits: string[];
  /** "" when no run of the commit names a branch. */
  branches: string[];
  /** "" when no uploader gave one. */
  messages: string[];
  /** ms since the epoch. */
  times: Float64Array;
  medians: Float64Array;
  ciLows: Float64Array;
  ciHighs: Float64Array;
  /** Commit i's run values are runValues[runStarts[i] .. runStarts[i + 1]). */
  runStarts: Uint32Array;
  /** null when read without them (readStoredSeries's `runValues: false`): storedRunValues reads those needed. */
  runValues: Float64Array | null;
}

/** A series and the variant's branches, both as of the snapshot at `runsVersion`. */
export interface ComputedSeries {
  runsVersion: bigint;
  columns: SeriesColumns;
  branches: SeriesBranch[];
}

/** Commit i's run values, from the columns (which must hold them). */
export function runValuesAt(columns: SeriesColumns, i: number): number[] {
  if (!columns.runValues) throw new Error("the series was read without its run values");
  return Array.from(columns.runValues.subarray(columns.runStarts[i], columns.runStarts[i + 1]));
}

/** Commit i as a point; `runValues` when the columns were read without them. */
export function pointAt(columns: SeriesColumns, i: number, runValues?: number[]): CommitPoint {
  const message = columns.messages[i] as string;
  return {
    commit: columns.commits[i] as string,
    branch: (columns.branches[i] as string) || null,
    time: new Date(columns.times[i] as number),
    ...(message ? { message } : {}),
    runValues: runValues ?? runValuesAt(columns, i),
    median: columns.medians[i] as number,
    ciLow: columns.ciLows[i] as number,
    ciHigh: columns.ciHighs[i] as number,
  };
}

export function pointsOf(columns: SeriesColumns): CommitPoint[] {
  return columns.commits.map((_, i) => pointAt(columns, i));
}

export function columnsOf(series: readonly CommitPoint[]): SeriesColumns {
  const runStarts = new Uint32Array(series.length + 1);
  series.forEach((p, i) => (runStarts[i + 1] = (runStarts[i] as number) + p.runValues.length));
  return {
    commits: series.map((p) => p.commit),
    branches: series.map((p) => p.branch ?? ""),
    messages: series.map((p) => p.message ?? ""),
    times: Float64Array.from(series, (p) => p.time.getTime()),
    medians: Float64Array.from(series, (p) => p.median),
    ciLows: Float64Array.from(series, (p) => p.ciLow),
    ciHighs: Float64Array.from(series, (p) => p.ciHigh),
    runStarts,
    runValues: Float64Array.from(series.flatMap((p) => p.runValues)),
  };
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
  runValues: Buffer | null;
  branches: SeriesBranch[];
}

interface ReadOptions {
  /**
   * false: leave the run values out (runValues null): a history page shows a few hundred of
   * 10,000 commits, and the run values are most of a stored series' bytes (storedRunValues).
   */
  runValues?: boolean;
}

/** The series of (metric, variant, branch) as the runs are now: stored if current, else computed and stored. */
export async function currentSeries(db: Db, subject: SeriesSubject, branch: string | null, options: ReadOptions = {}): Promise<ComputedSeries> {
  const stored = await readStoredSeries(db, subject, branch, options);
  if (stored) return stored;
  const computed = await computeSeries(db, subject, branch);
  await storeSeries(db, subject, branch, computed);
  return computed;
}

/** The stored series when it is current (see the top of this file), else null. One statement on the pool (prepared). */
export async function readStoredSeries(db: Db, subject: SeriesSubject, branch: string | null, options: ReadOptions = {}): Promise<ComputedSeries | null> {
  const runValues = options.runValues === false ? Prisma.sql`NULL::bytea` : Prisma.sql`s."runValues"`;
  const [row] = await preparedQuery<StoredRow>(
    db,
    Prisma.sql`
    SELECT v."runsVersion" AS "current", s."runsVersion", s."aggregation"::text AS "aggregation", s."labels", s."times", s."medians",
      s."ciLows", s."ciHighs", s."runCounts", ${runValues} AS "runValues", s."branches"
    FROM "Variant" v
    LEFT JOIN "HistorySeries" s ON s."variantId" = v."id" AND s."metricId" = ${subject.metric.id} AND s."branch" = ${branch ?? ""}
    WHERE v."id" = ${subject.variant.id}`,
  );
  if (!row || row.runsVersion === null || row.runsVersion !== row.current || row.aggregation !== subject.metric.aggregation) return null;
  return { runsVersion: row.runsVersion, columns: decode(row), branches: row.branches };
}

function decode(row: StoredRow): SeriesColumns {
  const counts = unpackUint32(row.runCounts);
  const runStarts = new Uint32Array(counts.length + 1);
  for (let i = 0; i < counts.length; i++) runStarts[i + 1] = (runStarts[i] as number) + (counts[i] as number);
  return {
    ...row.labels,
    times: unpackFloat64(row.times),
    medians: unpackFloat64(row.medians),
    ciLows: unpackFloat64(row.ciLows),
    ciHighs: unpackFloat64(row.ciHighs),
    runStarts,
    runValues: row.runValues && unpackFloat64(row.runValues),
  };
}

/**
 * The run values of commits `indices` (ascending) of a series read without them, sliced from
 * the stored row in the database (runValues is stored uncompressed, so only the pages holding
 * them are read); null when the stored series is no longer the one read (a newer one replaced
 * it meanwhile: read again).
 */
export async function storedRunValues(
  db: Db,
  subject: SeriesSubject,
  branch: string | null,
  read: ComputedSeries,
  indices: readonly number[],
): Promise<number[][] | null> {
  const { runStarts } = read.columns;
  // Adjacent commits are one slice: a zoomed window at full detail is one.
  const starts: number[] = [];
  const lengths: number[] = [];
  for (const i of indices) {
    const start = (runStarts[i] as number) * 8;
    const length = ((runStarts[i + 1] as number) - (runStarts[i] as number)) * 8;
    const last = starts.length - 1;
    if (last >= 0 && (starts[last] as number) + (lengths[last] as number) === start) lengths[last] = (lengths[last] as number) + length;
    else {
      starts.push(start);
      lengths.push(length);
    }
  }
  const [row] = await preparedQuery<{ values: Buffer | null }>(
    db,
    Prisma.sql`
    SELECT (SELECT string_agg(substring(s."runValues" FROM r."start" + 1 FOR r."length"), ''::bytea ORDER BY r."n")
            FROM unnest(${starts}::int[], ${lengths}::int[]) WITH ORDINALITY AS r("start", "length", "n")) AS "values"
    FROM "HistorySeries" s
    WHERE s."metricId" = ${subject.metric.id} AND s."variantId" = ${subject.variant.id} AND s."branch" = ${branch ?? ""}
      AND s."runsVersion" = ${read.runsVersion} AND s."aggregation" = ${subject.metric.aggregation}::"MetricAggregation"`,
  );
  if (!row) return null;
  const values = unpackFloat64(row.values ?? new Uint8Array());
  let offset = 0;
  return indices.map((i) => {
    const count = (runStarts[i + 1] as number) - (runStarts[i] as number);
    offset += count;
    return Array.from(values.subarray(offset - count, offset));
  });
}

/** Computes the series, the variant's branches and its runsVersion in one snapshot (a repeatable-read transaction). */
export async function computeSeries(db: Db, subject: SeriesSubject, branch: string | null): Promise<ComputedSeries> {
  return db.$transaction(
    async (tx) => {
      const [version] = await tx.$queryRaw<{ runsVersion: bigint }[]>`SELECT "runsVersion" FROM "Variant" WHERE "id" = ${subject.variant.id}`;
      // A variant deleted meanwhile: nothing to store, and the series is empty.
      if (!version) return { runsVersion: -1n, columns: columnsOf([]), branches: [] };
      const series = await commitSeriesOf(tx, subject, branch);
      const branches = await seriesBranches(tx, subject.variant.id);
      return { runsVersion: version.runsVersion, columns: columnsOf(series), branches };
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
  const { commits, branches, messages, times, medians, ciLows, ciHighs, runStarts, runValues } = computed.columns;
  const labels: Labels = { commits, branches, messages };
  if (!runValues) throw new Error("storeSeries needs the run values");
  const runCounts = runStarts.subarray(1).map((end, i) => end - (runStarts[i] as number));
  await db.$executeRaw`
    INSERT INTO "HistorySeries" ("metricId", "variantId", "branch", "runsVersion", "aggregation", "commitCount", "labels", "times", "medians",
      "ciLows", "ciHighs", "runCounts", "runValues", "branches", "updatedAt")
    SELECT ${subject.metric.id}, ${subject.variant.id}, ${branch ?? ""}, ${computed.runsVersion}, ${subject.metric.aggregation}::"MetricAggregation",
      ${commits.length}, ${JSON.stringify(labels)}::json, ${packFloat64(times)}, ${packFloat64(medians)},
      ${packFloat64(ciLows)}, ${packFloat64(ciHighs)}, ${packUint32(runCounts)},
      ${packFloat64(runValues)}, ${JSON.stringify(computed.branches)}::json, now()
    FROM "Variant" WHERE "id" = ${subject.variant.id} AND "runsVersion" = ${computed.runsVersion}
    ON CONFLICT ("metricId", "variantId", "branch") DO UPDATE SET
      "runsVersion" = EXCLUDED."runsVersion", "aggregation" = EXCLUDED."aggregation", "commitCount" = EXCLUDED."commitCount",
      "labels" = EXCLUDED."labels", "times" = EXCLUDED."times", "medians" = EXCLUDED."medians", "ciLows" = EXCLUDED."ciLows",
      "ciHighs" = EXCLUDED."ciHighs", "runCounts" = EXCLUDED."runCounts", "runValues" = EXCLUDED."runValues",
      "branches" = EXCLUDED."branches", "updatedAt" = now()`;
}
