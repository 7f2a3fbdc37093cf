// The per-commit series on a real, migrated PostgreSQL, from runs uploaded the way CI uploads them
// (POST /api/v1/results): one point per commit with the median of its runs' values (the metric's
// aggregation), the median's CI, ordered by commit time else first run, filtered by branch.
import crypto from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { db } from "~/server/db/client";
import { AppError } from "~/server/core/errors";
import { createApiKey } from "~/server/projects/api-keys";
import { createProject } from "~/server/projects/projects";
import { medianCi } from "~/server/stats/median-ci";
import { signedInUser } from "~/test/signed-in";
import { uploadStored } from "~/test/rest-assertions";
import { getCommitSeries, seriesBranches } from "./commit-series";

afterAll(() => db.$disconnect());

const owner = await signedInUser(db, "owner");

async function newProject() {
  const slug = `series-${crypto.randomBytes(4).toString("hex")}`;
  await createProject(db, { name: slug, slug, description: "" }, owner.id);
  return { slug, key: (await createApiKey(db, slug, "series test")).secret };
}

interface RunSpec {
  commit?: string;
  branch?: string;
  message?: string;
  commitTime?: string;
  startedAt: string;
  /** The run's p95 and mean (the metric aggregates by p95). */
  p95: number;
  mean?: number;
  variant?: string;
}

function upload(key: string, experiment: string, runs: RunSpec[]) {
  return uploadStored(key, {
    experiment,
    create: true,
    runs: runs.map((r) => ({
      variant: r.variant ?? "main",
      startedAt: r.startedAt,
      gitCommit: r.commit,
      gitBranch: r.branch,
      gitCommitMessage: r.message,
      gitCommitTime: r.commitTime,
      metrics: [{ key: "latency", unit: "ms", direction: "lower_is_better", aggregation: "p95", summary: { n: 100, mean: r.mean ?? r.p95 / 2, p95: r.p95 } }],
    })),
  });
}

async function experimentId(slug: string, experiment: string) {
  return (await db.experiment.findFirstOrThrow({ where: { slug: experiment, project: { slug } }, select: { id: true } })).id;
}

describe("getCommitSeries", () => {
  it("gives one point per commit: the median of its runs' aggregated values, its CI, every run, in commit-time order", async () => {
    const { slug, key } = await newProject();
    // Commit "bbb" was made before "aaa" but its runs came later: commit time decides the order.
    const runs: RunSpec[] = [
      ...[10, 12, 11, 13, 9, 14, 10.5].map((p95, i) => ({
        commit: "aaa",
        branch: "main",
        message: "Add gzip",
        commitTime: "2026-03-02T10:00:00Z",
        startedAt: `2026-03-05T10:0${i}:00Z`,
        p95,
      })),
      ...[20, 21, 19].map((p95, i) => ({
        commit: "bbb",
        branch: "main",
        message: "Tune buffers",
        commitTime: "2026-03-01T10:00:00Z",
        startedAt: `2026-03-06T10:0${i}:00Z`,
        p95,
      })),
      // A run without a commit is not part of any history.
      { startedAt: "2026-03-07T10:00:00Z", p95: 99 },
    ];
    await upload(key, "hist", runs);
    const series = await getCommitSeries(db, { experimentId: await experimentId(slug, "hist"), metric: "latency", variant: "main" });

    expect(series.map((p) => p.commit)).toEqual(["bbb", "aaa"]);
    const [bbb, aaa] = series;
    expect(aaa?.runValues).toEqual([9, 10, 10.5, 11, 12, 13, 14]);
    const ci = medianCi([9, 10, 10.5, 11, 12, 13, 14], 0.95);
    expect(aaa).toMatchObject({ branch: "main", message: "Add gzip", median: 11, ciLow: ci?.low, ciHigh: ci?.high });
    expect(aaa?.time.toISOString()).toBe("2026-03-02T10:00:00.000Z");
    // Three runs: too few for a 95% interval, so [min, max] (server/stats/median-ci.ts).
    expect(bbb).toMatchObject({ runValues: [19, 20, 21], median: 20, ciLow: 19, ciHigh: 21 });
  });

  it("orders commits without a commit time by their first run, and filters by branch", async () => {
    const { slug, key } = await newProject();
    await upload(key, "hist", [
      { commit: "c2", branch: "main", startedAt: "2026-04-02T00:00:00Z", p95: 2 },
      { commit: "c1", branch: "main", startedAt: "2026-04-01T00:00:00Z", p95: 1 },
      { commit: "c1", branch: "main", startedAt: "2026-04-03T00:00:00Z", p95: 3 },
      { commit: "f1", branch: "feature/zstd", startedAt: "2026-04-01T12:00:00Z", p95: 5 },
      { commit: "c3", branch: "main", startedAt: "2026-04-04T00:00:00Z", p95: 7, variant: "other" },
    ]);
    const id = await experimentId(slug, "hist");
    const all = await getCommitSeries(db, { experimentId: id, metric: "latency", variant: "main" });
    expect(all.map((p) => [p.commit, p.time.toISOString(), p.median])).toEqual([
      ["c1", "2026-04-01T00:00:00.000Z", 2],
      ["f1", "2026-04-01T12:00:00.000Z", 5],
      ["c2", "2026-04-02T00:00:00.000Z", 2],
    ]);
    expect(all.find((p) => p.commit === "c1")?.message).toBeUndefined();
    const main = await getCommitSeries(db, { experimentId: id, metric: "latency", variant: "main", branch: "main" });
    expect(main.map((p) => p.commit)).toEqual(["c1", "c2"]);
    expect(await getCommitSeries(db, { experimentId: id, metric: "latency", variant: "main", branch: "nope" })).toEqual([]);
    expect(await seriesBranches(db, (await db.variant.findFirstOrThrow({ where: { experimentId: id, name: "main" } })).id)).toEqual([
      { branch: "main", commits: 2 },
      { branch: "feature/zstd", commits: 1 },
    ]);
  });

  it("uses the metric's aggregation (mean here, not p95) and leaves out failed runs", async () => {
    const { slug, key } = await newProject();
    await uploadStored(key, {
      experiment: "agg",
      create: true,
      runs: [
        { variant: "main", gitCommit: "x1", metrics: [{ key: "tput", unit: "req/s", direction: "higher_is_better", summary: { n: 10, mean: 100, p95: 150 } }] },
        { variant: "main", gitCommit: "x1", status: "failed", metrics: [{ key: "tput", summary: { n: 10, mean: 1, p95: 1 } }] },
      ],
    });
    const series = await getCommitSeries(db, { experimentId: await experimentId(slug, "agg"), metric: "tput", variant: "main" });
    expect(series.map((p) => p.runValues)).toEqual([[100]]);
  });

  it("names the field of an unknown metric or variant", async () => {
    const { slug, key } = await newProject();
    await upload(key, "hist", [{ commit: "c1", startedAt: "2026-04-01T00:00:00Z", p95: 1 }]);
    const id = await experimentId(slug, "hist");
    for (const [query, field] of [
      [{ metric: "nope", variant: "main" }, "metric"],
      [{ metric: "latency", variant: "nope" }, "variant"],
    ] as const) {
      const error = await getCommitSeries(db, { experimentId: id, ...query }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).code).toBe("NOT_FOUND");
      expect((error as AppError).fieldIssues?.map((i) => i.path.join("."))).toEqual([field]);
    }
  });
});
