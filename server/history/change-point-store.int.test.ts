// Change points stored from uploaded histories, on a real PostgreSQL: found after an upload (by
// the background work its runs marked, never failing it), with the commit range, size and CI, a verdict by the
// metric's direction; recomputed incrementally as commits arrive, keeping a user's review;
// refreshChangePoints reports only the ones it stored for the first time.
import crypto from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { db } from "~/server/db/client";
import { createApiKey } from "~/server/projects/api-keys";
import { createProject } from "~/server/projects/projects";
import { mulberry32, standardNormal } from "~/server/stats/prng";
import { signedInUser } from "~/test/signed-in";
import { uploadStored } from "~/test/rest-assertions";
import { refreshChangePoints } from "./change-point-store";
import { reviewChangePoint } from "./change-point-review";
import { drainBackgroundWork } from "~/server/background/worker";

afterAll(async () => {
  await drainBackgroundWork(db);
  await db.$disconnect();
});

const owner = await signedInUser(db, "owner");

async function newProject() {
  const slug = `cps-${crypto.randomBytes(4).toString("hex")}`;
  const project = await createProject(db, { name: slug, slug, description: "" }, owner.id);
  return { slug, projectId: project.id, key: (await createApiKey(db, slug, "change points")).secret };
}

const sha = (i: number) => crypto.createHash("sha1").update(`commit ${i}`).digest("hex");

/** Commits `from`..`to`−1 with 3 runs each around level(i), 1.5% noise, one commit per hour from 2026-01-01. */
function commits(from: number, to: number, level: (i: number) => number, seed: number, direction: "lower_is_better" | "higher_is_better" = "lower_is_better") {
  const random = mulberry32(seed);
  const runs = [];
  for (let i = from; i < to; i++) {
    for (let r = 0; r < 3; r++) {
      runs.push({
        variant: "gzip",
        gitCommit: sha(i),
        gitBranch: "main",
        gitCommitMessage: `Commit number ${i}`,
        gitCommitTime: new Date(Date.UTC(2026, 0, 1) + i * 3_600_000).toISOString(),
        metrics: [{ key: "time", unit: "ms", direction, summary: { n: 50, mean: level(i) * (1 + 0.015 * standardNormal(random)) } }],
      });
    }
  }
  return runs;
}

async function upload(key: string, runs: object[]) {
  await uploadStored(key, { experiment: "bench", create: true, runs });
  await drainBackgroundWork(db);
}

const experimentOf = async (slug: string) => (await db.experiment.findFirstOrThrow({ where: { slug: "bench", project: { slug } }, select: { id: true } })).id;

describe("stored change points", () => {
  it("are found after an upload, with range, size, CI and a direction-aware verdict, and keep a review across recomputes", async () => {
    const { slug, projectId, key } = await newProject();
    // Lower is better: +10% from commit 40 is a regression.
    await upload(
      key,
      commits(0, 80, (i) => (i < 40 ? 100 : 110), 1),
    );
    const experimentId = await experimentOf(slug);
    const stored = await db.changePoint.findMany({ where: { experimentId }, orderBy: { branch: "asc" } });
    // The one branch holds every commit: the same change point on "main" and on all branches ("").
    expect(stored.map((c) => c.branch)).toEqual(["", "main"]);
    for (const c of stored) {
      expect(Math.abs(c.commitIndex - 40)).toBeLessThanOrEqual(2);
      expect(c.commit).toBe(sha(c.commitIndex));
      expect(c.previousCommit).toBe(sha(c.commitIndex - 1));
      expect(c).toMatchObject({ verdict: "regression", status: "open" });
      expect(c.changePercent).toBeGreaterThan(8);
      expect(c.changePercent).toBeLessThan(12);
      expect(c.ciLowPercent).toBeLessThan(c.changePercent as number);
      expect(c.ciHighPercent).toBeGreaterThan(c.changePercent as number);
      expect(c.ciLowPercent).toBeGreaterThan(0);
      expect(c.pValue).toBeLessThanOrEqual(0.01);
    }

    const all = stored.find((c) => c.branch === "") as (typeof stored)[number];
    await reviewChangePoint(db, projectId, all.id, "acknowledged", owner.id);

    // 20 more commits at the new level: the tail is searched again (the scan grew), the review stays.
    await upload(
      key,
      commits(80, 100, () => 110, 2),
    );
    const scan = await db.changePointScan.findFirstOrThrow({ where: { metricId: all.metricId, variantId: all.variantId, branch: "" } });
    expect(scan.commits).toBe(100);
    const again = await db.changePoint.findUniqueOrThrow({ where: { id: all.id } });
    expect(again).toMatchObject({ commit: all.commit, status: "acknowledged", reviewedById: owner.id });
    expect(again.reviewedAt).not.toBeNull();

    // Nothing new since: a refresh reports nothing.
    expect(await refreshChangePoints(db, experimentId)).toEqual([]);
  });

  it("refreshChangePoints returns only the change points it stored for the first time", async () => {
    const { slug, key } = await newProject();
    await upload(
      key,
      commits(0, 60, (i) => (i < 30 ? 200 : 220), 3, "higher_is_better"),
    );
    const experimentId = await experimentOf(slug);
    const first = await db.changePoint.findMany({ where: { experimentId, branch: "" } });
    expect(first.map((c) => c.verdict)).toEqual(["improvement"]); // higher is better

    // A drop of 10% from commit 60 on.
    await uploadStored(key, { experiment: "bench", runs: commits(60, 100, () => 198, 4, "higher_is_better") });
    await drainBackgroundWork(db);
    // The background refresh stored it; a direct call now finds nothing new.
    expect(await refreshChangePoints(db, experimentId)).toEqual([]);
    const stored = await db.changePoint.findMany({ where: { experimentId, branch: "" }, orderBy: { commitIndex: "asc" } });
    expect(stored.map((c) => c.verdict)).toEqual(["improvement", "regression"]);

    // Delete the scans and change points: a refresh finds them again, all new, described for an alert.
    await db.changePoint.deleteMany({ where: { experimentId } });
    await db.changePointScan.deleteMany({ where: { variant: { experimentId } } });
    const fresh = await refreshChangePoints(db, experimentId);
    expect(fresh.filter((c) => c.branch === "").map((c) => [c.metricKey, c.variantName, c.verdict, c.commit])).toEqual(
      stored.map((c) => ["time", "gzip", c.verdict, c.commit]),
    );
    expect(fresh.every((c) => c.previousCommit && c.changePercent !== null && c.pValue <= 0.01)).toBe(true);
  });

  it("analyses the whole series again when a commit lands earlier in it, keeping reviews of points found again", async () => {
    const { slug, projectId, key } = await newProject();
    await upload(
      key,
      commits(0, 60, (i) => (i < 30 ? 100 : 90), 5),
    );
    const experimentId = await experimentOf(slug);
    const [cp] = await db.changePoint.findMany({ where: { experimentId, branch: "" } });
    expect(cp?.verdict).toBe("improvement");
    await reviewChangePoint(db, projectId, (cp as { id: string }).id, "dismissed", owner.id);
    // A commit made before commit 0 (its commit time says so) arrives late.
    const early = commits(0, 1, () => 100, 6).map((r) => ({ ...r, gitCommit: "early", gitCommitTime: "2025-12-31T00:00:00.000Z" }));
    await upload(key, early);
    const scan = await db.changePointScan.findFirstOrThrow({ where: { variant: { experimentId }, branch: "" } });
    expect(scan.commits).toBe(61);
    const after = await db.changePoint.findMany({ where: { experimentId, branch: "" } });
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({ commit: cp?.commit, status: "dismissed", commitIndex: (cp?.commitIndex as number) + 1 });
  });

  it("reviews only within the project, and reopening clears the reviewer", async () => {
    const { slug, projectId, key } = await newProject();
    const other = await newProject();
    await upload(
      key,
      commits(0, 40, (i) => (i < 20 ? 100 : 120), 7),
    );
    const [cp] = await db.changePoint.findMany({ where: { experiment: { project: { slug } }, branch: "" } });
    const id = (cp as { id: string }).id;
    await expect(reviewChangePoint(db, other.projectId, id, "dismissed", owner.id)).rejects.toMatchObject({ code: "NOT_FOUND" });
    await reviewChangePoint(db, projectId, id, "acknowledged", owner.id);
    await reviewChangePoint(db, projectId, id, "open", owner.id);
    expect(await db.changePoint.findUniqueOrThrow({ where: { id } })).toMatchObject({ status: "open", reviewedById: null, reviewedAt: null });
  });
});
