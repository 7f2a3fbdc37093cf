// Stored history points on a real PostgreSQL, from runs uploaded through POST /api/v1/results:
// the change-point refresh stores every series (all branches, each branch), equal to what the
// runs give when computed afresh; a read after an upload never shows the points from before it,
// even when the refresh has not stored them yet (it computes and stores them itself); any change
// to a variant's runs or results (insert, update, delete) makes its stored series stale, as does
// another aggregation; points computed before the runs changed are never stored.
import crypto from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { GET } from "~/app/api/v1/experiments/[slugOrId]/history/route";
import { db } from "~/server/db/client";
import type { THistory } from "~/server/schemas/history";
import { createApiKey } from "~/server/projects/api-keys";
import { createProject } from "~/server/projects/projects";
import { signedInUser } from "~/test/signed-in";
import { uploadStored } from "~/test/rest-assertions";
import { commitSeriesOf, seriesBranches, type SeriesSubject } from "./commit-series";
import { drainBackgroundWork } from "~/server/background/worker";
import { computeSeries, currentSeries, pointsOf, readStoredSeries, storedRunValues, storeSeries, type ComputedSeries } from "./stored-series";

afterAll(async () => {
  await drainBackgroundWork(db);
  await db.$disconnect();
});

const owner = await signedInUser(db, "owner");

/** The stored or current series with its points as objects, to compare with commitSeriesOf's. */
const withPoints = (s: ComputedSeries) => ({ ...s, series: pointsOf(s.columns) });
const readStored = async (subject: SeriesSubject, branch: string | null) => {
  const stored = await readStoredSeries(db, subject, branch);
  return stored && withPoints(stored);
};
const current = async (subject: SeriesSubject, branch: string | null) => withPoints(await currentSeries(db, subject, branch));

async function newProject() {
  const slug = `stored-${crypto.randomBytes(4).toString("hex")}`;
  await createProject(db, { name: slug, slug, description: "" }, owner.id);
  return { slug, key: (await createApiKey(db, slug, "stored series")).secret };
}

const sha = (i: number) => crypto.createHash("sha1").update(`stored ${i}`).digest("hex");

/** Commits from..to−1, 3 runs each (values i, i+1, i+2 ms), on `branch(i)`, one per hour. */
function runs(from: number, to: number, branch: (i: number) => string | undefined = () => "main") {
  return Array.from({ length: to - from }, (_, k) => from + k).flatMap((i) =>
    [0, 1, 2].map((r) => ({
      variant: "v",
      gitCommit: sha(i),
      gitBranch: branch(i),
      gitCommitMessage: i % 2 ? `Commit ${i}` : undefined,
      gitCommitTime: new Date(Date.UTC(2026, 0, 1) + i * 3_600_000).toISOString(),
      metrics: [{ key: "t", unit: "ms", direction: "lower_is_better", summary: { n: 10, mean: 100 + i + r, max: 200 + i + r } }],
    })),
  );
}

async function subjectOf(slug: string): Promise<SeriesSubject> {
  const experiment = await db.experiment.findFirstOrThrow({
    where: { slug: "svc", project: { slug } },
    select: {
      metrics: { select: { id: true, key: true, label: true, unit: true, direction: true, aggregation: true } },
      variants: { select: { id: true, name: true } },
    },
  });
  return { metric: experiment.metrics[0]!, variant: experiment.variants[0]! };
}

async function getHistory(slug: string, key: string, params: Record<string, string> = {}) {
  const url = new URL("http://test.local/api/v1/experiments/svc/history");
  for (const [k, v] of Object.entries({ maxPoints: "5000", ...params })) url.searchParams.set(k, v);
  const response = await GET(new Request(url, { headers: { authorization: `Bearer ${key}` } }), { params: Promise.resolve({ slugOrId: "svc" }) });
  expect(response.status).toBe(200);
  return (await response.json()) as THistory;
}

describe("stored history points", () => {
  it("are stored by the refresh for all branches and each branch, equal to the series computed afresh", async () => {
    const { slug, key } = await newProject();
    await uploadStored(key, { experiment: "svc", create: true, runs: runs(0, 30, (i) => (i % 3 === 0 ? "release" : "main")) });
    await drainBackgroundWork(db);
    const subject = await subjectOf(slug);
    const rows = await db.historySeries.findMany({
      where: { variantId: subject.variant.id },
      orderBy: { branch: "asc" },
      select: { branch: true, runsVersion: true, aggregation: true, commitCount: true },
    });
    const { runsVersion } = await db.variant.findUniqueOrThrow({ where: { id: subject.variant.id }, select: { runsVersion: true } });
    expect(runsVersion).toBeGreaterThan(0n);
    expect(rows).toEqual([
      { branch: "", runsVersion, aggregation: "mean", commitCount: 30 },
      { branch: "main", runsVersion, aggregation: "mean", commitCount: 20 },
      { branch: "release", runsVersion, aggregation: "mean", commitCount: 10 },
    ]);
    const branches = await seriesBranches(db, subject.variant.id);
    for (const branch of [null, "main", "release"]) {
      const stored = await readStored(subject, branch);
      expect(stored, String(branch)).not.toBeNull();
      expect(stored!.series).toEqual(await commitSeriesOf(db, subject, branch));
      expect(stored!.branches).toEqual(branches);
    }
    // Messages and a commit with none, times, run values: as uploaded.
    const all = (await readStored(subject, null))!.series;
    expect(all).toHaveLength(30);
    expect(all[1]).toMatchObject({ commit: sha(1), branch: "main", message: "Commit 1", runValues: [101, 102, 103], median: 102, ciLow: 101, ciHigh: 103 });
    expect(all[1]!.time.toISOString()).toBe("2026-01-01T01:00:00.000Z");
    expect(all[0]).not.toHaveProperty("message");
    expect(all[3]!.branch).toBe("release");
  });

  it("a single branch holding every commit is stored once computed, for the branch and for all branches", async () => {
    const { slug, key } = await newProject();
    await uploadStored(key, { experiment: "svc", create: true, runs: runs(0, 12) });
    await drainBackgroundWork(db);
    const subject = await subjectOf(slug);
    const main = await readStored(subject, "main");
    expect(main!.series).toEqual(await commitSeriesOf(db, subject, "main"));
    expect(main!.series).toEqual((await readStored(subject, null))!.series);
    // A run on a second branch ends that: the next refresh stores each branch's own series.
    await uploadStored(key, { experiment: "svc", runs: runs(12, 13, () => "feature") });
    await drainBackgroundWork(db);
    expect((await readStored(subject, "main"))!.series).toHaveLength(12);
    expect((await readStored(subject, "feature"))!.series.map((p) => p.commit)).toEqual([sha(12)]);
    expect((await readStored(subject, null))!.series).toHaveLength(13);
  });

  it("a read right after an upload shows it, also when the refresh has not stored it yet, and stores what it computed", async () => {
    const { slug, key } = await newProject();
    await uploadStored(key, { experiment: "svc", create: true, runs: runs(0, 10) });
    await drainBackgroundWork(db);
    const subject = await subjectOf(slug);
    const before = await db.historySeries.findMany({ where: { variantId: subject.variant.id } });
    expect(before).toHaveLength(2);

    await uploadStored(key, { experiment: "svc", runs: runs(10, 11) });
    await drainBackgroundWork(db);
    // As if the refresh had not run yet: the points from before the upload are back in the table.
    for (const { branches, labels, ...row } of before) {
      await db.historySeries.update({
        where: { metricId_variantId_branch: { metricId: row.metricId, variantId: row.variantId, branch: row.branch } },
        data: { ...row, labels: labels as object, branches: branches as object },
      });
    }
    expect(await readStored(subject, null)).toBeNull();
    expect(await readStored(subject, "main")).toBeNull();

    for (const branch of [undefined, "main"]) {
      const history = await getHistory(slug, key, branch ? { branch } : {});
      expect(history.commits).toBe(11);
      expect(history.points.at(-1)).toMatchObject({ commit: sha(10), runValues: [110, 111, 112] });
    }
    // The read stored what it computed: current again, with the new run count.
    const now = await readStored(subject, null);
    expect(now?.runsVersion).toBe((await db.variant.findUniqueOrThrow({ where: { id: subject.variant.id } })).runsVersion);
    expect(now?.series).toEqual(await commitSeriesOf(db, subject, null));
  });

  it("a history page reads only the shown commits' run values, and reads again when a newer series replaced the one it read", async () => {
    const { slug, key } = await newProject();
    await uploadStored(key, { experiment: "svc", create: true, runs: runs(0, 120) });
    await drainBackgroundWork(db);
    const subject = await subjectOf(slug);
    const all = await commitSeriesOf(db, subject, null);
    // Thinned to points spread over the series (some adjacent, most not): each with its own run values.
    const thinned = await getHistory(slug, key, { maxPoints: "50" });
    expect(thinned.downsampled).toBe(true);
    expect(thinned.points.length).toBeGreaterThan(20);
    for (const point of thinned.points) expect(point.runValues, point.commit).toEqual(all.find((p) => p.commit === point.commit)!.runValues);

    const read = (await readStoredSeries(db, subject, null, { runValues: false }))!;
    expect(read.columns.runValues).toBeNull();
    expect(await storedRunValues(db, subject, null, read, [0, 1, 2, 119])).toEqual([0, 1, 2, 119].map((i) => all[i]!.runValues));
    await uploadStored(key, { experiment: "svc", runs: runs(120, 121) });
    await drainBackgroundWork(db);
    // The series read is not the stored one any more: no run values from the new one.
    expect(await storedRunValues(db, subject, null, read, [0])).toBeNull();
  });

  it("is stale when computed with another aggregation; a store never replaces points from more runs", async () => {
    const { slug, key } = await newProject();
    await uploadStored(key, { experiment: "svc", create: true, runs: runs(0, 5) });
    await drainBackgroundWork(db);
    const subject = await subjectOf(slug);
    // The same runs aggregated by max: not the stored (mean) points.
    const byMax: SeriesSubject = { ...subject, metric: { ...subject.metric, aggregation: "max" } };
    expect(await readStored(byMax, null)).toBeNull();
    const maxSeries = await current(byMax, null);
    expect(maxSeries.series[0]!.runValues).toEqual([200, 201, 202]);
    expect((await readStored(byMax, null))!.series).toEqual(maxSeries.series);
    expect(await readStored(subject, null)).toBeNull();

    // Points computed before the runs changed are not stored over the current ones.
    const old = await computeSeries(db, subject, null);
    await uploadStored(key, { experiment: "svc", runs: runs(5, 6) });
    await drainBackgroundWork(db);
    await storeSeries(db, subject, null, old);
    expect((await readStored(subject, null))!.series).toHaveLength(6);
  });

  it("is stale after any change to the variant's runs or their results, by any writer", async () => {
    const { slug, key } = await newProject();
    await uploadStored(key, { experiment: "svc", create: true, runs: runs(0, 4) });
    await drainBackgroundWork(db);
    const subject = await subjectOf(slug);
    const fresh = async () => {
      await current(subject, null);
      expect(await readStored(subject, null)).not.toBeNull();
    };
    const changes: [string, () => Promise<unknown>][] = [
      [
        "a result's value changed",
        () => db.runMetricResult.updateMany({ where: { run: { variantId: subject.variant.id, gitCommit: sha(0) } }, data: { mean: 500 } }),
      ],
      [
        "a result deleted",
        async () =>
          db.runMetricResult.delete({
            where: { id: (await db.runMetricResult.findFirstOrThrow({ where: { run: { variantId: subject.variant.id, gitCommit: sha(1) } } })).id },
          }),
      ],
      [
        "a run's commit changed",
        () => db.run.updateMany({ where: { variantId: subject.variant.id, gitCommit: sha(2) }, data: { gitCommitMessage: "Reworded" } }),
      ],
      [
        "a run deleted",
        async () => db.run.delete({ where: { id: (await db.run.findFirstOrThrow({ where: { variantId: subject.variant.id, gitCommit: sha(3) } })).id } }),
      ],
    ];
    for (const [what, change] of changes) {
      await fresh();
      await change();
      expect(await readStored(subject, null), what).toBeNull();
      expect((await current(subject, null)).series, what).toEqual(await commitSeriesOf(db, subject, null));
    }
    const series = await commitSeriesOf(db, subject, null);
    expect(series.find((p) => p.commit === sha(0))?.runValues).toEqual([500, 500, 500]);
    expect(series.find((p) => p.commit === sha(1))?.runValues).toHaveLength(2);
    expect(series.find((p) => p.commit === sha(2))?.message).toBe("Reworded");
    expect(series.find((p) => p.commit === sha(3))?.runValues).toHaveLength(2);
  });
});
