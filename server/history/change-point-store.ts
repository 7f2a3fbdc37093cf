// Finds and stores the change points of an experiment's histories: for every metric × variant ×
// branch (and all branches together, branch ""), E-Divisive means (server/stats/change-points.ts)
// over the per-commit medians (commit-series.ts), whose points it stores for the history reads
// (stored-series.ts). Each change point gets the commit range it came
// in (previous commit → commit), its size in % with a confidence interval (the Hodges–Lehmann
// interval of server/stats/change-ci.ts between the commit medians of the segments on either
// side), and a verdict by the metric's direction.
//
// Recomputing keeps what users did: a change point found again at the same commit keeps its
// status (acknowledged/dismissed), reviewer and time; one no longer found is deleted. A scan
// remembers what it analysed (ChangePointScan), so when runs only added commits at the end the
// next scan searches just the tail (detectChangePoints's incremental mode); otherwise (a commit
// inserted earlier, a median that moved) it analyses the whole series again.
import crypto from "node:crypto";
import type { Db, Prisma } from "../db/client";
import type { ChangeVerdict } from "../db/generated/enums";
import { estimateChange } from "../stats/change-ci";
import { detectChangePoints, type ChangePointResult } from "../stats/change-points";
import type { CommitPoint, SeriesSubject } from "./commit-series";
import { currentSeries, pointsOf, readStoredSeries, storeSeries as storePoints, type ComputedSeries } from "./stored-series";

/** Confidence of a change point's size interval. */
export const CHANGE_CI_CONFIDENCE = 0.95;

/** A change point a refresh stored for the first time. */
export interface NewChangePoint {
  id: string;
  experimentId: string;
  metricId: string;
  metricKey: string;
  variantId: string;
  variantName: string;
  /** "" when found on all branches together. */
  branch: string;
  commit: string;
  previousCommit: string;
  changePercent: number | null;
  ciLowPercent: number | null;
  ciHighPercent: number | null;
  verdict: ChangeVerdict;
  pValue: number;
}

interface Analysed {
  result: ChangePointResult;
  digest: string;
  /** The last scan analysed exactly this series: nothing to store. */
  unchanged: boolean;
}

/**
 * Recomputes the change points of every history of the experiment and returns the ones stored
 * for the first time (not found by an earlier refresh at the same commit): what an alert should
 * tell about. Safe to call at any time and from several processes: each series' write is one
 * transaction under a lock of its own.
 */
export async function refreshChangePoints(db: Db, experimentId: string): Promise<NewChangePoint[]> {
  const experiment = await db.experiment.findUnique({
    where: { id: experimentId },
    select: {
      metrics: { select: { id: true, key: true, label: true, unit: true, direction: true, aggregation: true } },
      variants: { select: { id: true, name: true } },
    },
  });
  if (!experiment) return [];
  // Per variant and branch, whether it has succeeded runs with a commit (a history), with the
  // variant's runsVersion in the same snapshot (stored-series.ts).
  const branchRows = await db.$queryRaw<{ variantId: string; gitBranch: string | null; succeeded: boolean; runsVersion: bigint }[]>`
    SELECT r."variantId", r."gitBranch", bool_or(r."status" = 'succeeded') AS "succeeded", MIN(v."runsVersion") AS "runsVersion"
    FROM "Run" r JOIN "Variant" v ON v."id" = r."variantId"
    WHERE r."experimentId" = ${experimentId} AND r."gitCommit" IS NOT NULL
    GROUP BY r."variantId", r."gitBranch"`;
  const fresh: NewChangePoint[] = [];
  for (const variant of experiment.variants) {
    const rows = branchRows.filter((r) => r.variantId === variant.id);
    if (!rows.some((r) => r.succeeded)) continue;
    const named = rows.filter((r) => r.gitBranch && r.succeeded).map((r) => r.gitBranch as string);
    // A single named branch holding every run with a commit has the same series as all branches
    // together: read (or compute) it once, and store it for the branch too — but only when that
    // series is of exactly the runs seen here (the same runsVersion), so it is the branch's series.
    const onlyBranch = named.length === 1 && rows.length === 1 ? (rows[0] as (typeof rows)[number]).runsVersion : null;
    for (const metric of experiment.metrics) {
      const subject: SeriesSubject = { metric, variant };
      // `memo` holds E-Divisive results by the series' digest.
      const memo = new Map<string, ChangePointResult>();
      let all: ComputedSeries | undefined;
      for (const branch of ["", ...named]) {
        let points: ComputedSeries;
        if (branch === "") points = all = await currentSeries(db, subject, null);
        else if (onlyBranch !== null && all?.runsVersion === onlyBranch) {
          points = (await readStoredSeries(db, subject, branch)) ?? all;
          if (points === all) await storePoints(db, subject, branch, all);
        } else points = await currentSeries(db, subject, branch);
        fresh.push(...(await storeSeries(db, experimentId, subject, branch, pointsOf(points.columns), memo)));
      }
    }
  }
  return fresh;
}

/** A SHA-256 over the first `count` (commit, median) pairs. */
function digestOf(series: readonly CommitPoint[], count: number): string {
  const hash = crypto.createHash("sha256");
  for (const point of series.slice(0, count)) hash.update(`${point.commit}\u0000${point.median}\u0000`);
  return hash.digest("hex");
}

async function analyse(
  db: Db,
  subject: SeriesSubject,
  branch: string,
  series: readonly CommitPoint[],
  memo: Map<string, ChangePointResult>,
): Promise<Analysed> {
  const medians = series.map((p) => p.median);
  const digest = digestOf(series, series.length);
  const seen = memo.get(digest);
  if (seen) return { result: seen, digest, unchanged: false };
  const scan = await db.changePointScan.findUnique({
    where: { metricId_variantId_branch: { metricId: subject.metric.id, variantId: subject.variant.id, branch } },
  });
  if (scan && scan.commits === series.length && scan.digest === digest) return { result: scan.result as unknown as ChangePointResult, digest, unchanged: true };
  const previous =
    scan && scan.commits <= series.length && digestOf(series, scan.commits) === scan.digest ? (scan.result as unknown as ChangePointResult) : undefined;
  const result = detectChangePoints(medians, {}, previous);
  memo.set(digest, result);
  return { result, digest, unchanged: false };
}

function verdictOf(direction: SeriesSubject["metric"]["direction"], before: number, after: number, meanBefore: number, meanAfter: number): ChangeVerdict {
  // Equal medians (a shift E-Divisive saw in the spread or the mean): the means decide.
  const up = after !== before ? after > before : meanAfter > meanBefore;
  return up === (direction === "lower_is_better") ? "regression" : "improvement";
}

async function storeSeries(
  db: Db,
  experimentId: string,
  subject: SeriesSubject,
  branch: string,
  series: readonly CommitPoint[],
  memo: Map<string, ChangePointResult>,
): Promise<NewChangePoint[]> {
  const { result, digest, unchanged } = await analyse(db, subject, branch, series, memo);
  if (unchanged) return [];
  const medians = series.map((p) => p.median);
  const found = result.changePoints.map((c) => {
    const beforeValues = medians.slice(c.beforeSegment.start, c.beforeSegment.end).sort((a, b) => a - b);
    const afterValues = medians.slice(c.afterSegment.start, c.afterSegment.end).sort((a, b) => a - b);
    const change = estimateChange(beforeValues, afterValues, CHANGE_CI_CONFIDENCE);
    return {
      commit: (series[c.index] as CommitPoint).commit,
      previousCommit: (series[c.index - 1] as CommitPoint).commit,
      commitIndex: c.index,
      before: c.before,
      after: c.after,
      changePercent: c.changePercent,
      ciLowPercent: change.percentCi?.low ?? null,
      ciHighPercent: change.percentCi?.high ?? null,
      verdict: verdictOf(subject.metric.direction, c.before, c.after, c.meanBefore, c.meanAfter),
      pValue: c.p,
    };
  });
  const key = { metricId: subject.metric.id, variantId: subject.variant.id, branch };
  return db.$transaction(async (tx) => {
    // One writer per series at a time, across processes.
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`change-points:${key.metricId}:${key.variantId}:${branch}`}))`;
    const existing = await tx.changePoint.findMany({ where: key, select: { id: true, commit: true } });
    const known = new Set(existing.map((e) => e.commit));
    const keep = new Set(found.map((f) => f.commit));
    await tx.changePoint.deleteMany({ where: { ...key, commit: { notIn: [...keep] } } });
    const created: NewChangePoint[] = [];
    for (const f of found) {
      if (known.has(f.commit)) {
        // Figures move as runs arrive; status, reviewer and review time stay.
        await tx.changePoint.update({ where: { metricId_variantId_branch_commit: { ...key, commit: f.commit } }, data: f });
        continue;
      }
      const row = await tx.changePoint.create({ data: { ...key, experimentId, ...f }, select: { id: true } });
      created.push({
        id: row.id,
        experimentId,
        metricId: key.metricId,
        metricKey: subject.metric.key,
        variantId: key.variantId,
        variantName: subject.variant.name,
        branch,
        ...f,
      });
    }
    const scan = { commits: series.length, digest, result: result as unknown as Prisma.InputJsonObject };
    await tx.changePointScan.upsert({ where: { metricId_variantId_branch: key }, create: { ...key, ...scan }, update: scan });
    return created;
  });
}
