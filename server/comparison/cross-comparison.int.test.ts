// Comparing run sets across experiments and commits, end to end on a real, migrated PostgreSQL:
// runs uploaded through the ingest service, compared through the service and the tRPC procedure.
// The sets are constructed so the verdict is known (a 20% faster commit, a slower variant), and
// the figures must equal the engine's on the same replicates: "compared the same way".
import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { signedInUser } from "~/test/signed-in";
import { createPrismaClient } from "~/server/db/client";
import { ZCrossComparisonQuery, requestOfQuery } from "~/server/schemas/cross-comparison";
import { compareMetric } from "~/server/stats/compare";
import { upload } from "~/test/fixtures/kafka-serializers";
import { createProject } from "../projects/projects";
import { compareRunSets } from "./cross-comparison";

const db = createPrismaClient(inject("databaseUrl"));
const owner = await signedInUser(db, "owner");
const caller = owner.caller;

afterAll(() => db.$disconnect());

// Per-run mean latency (ms) of one endpoint before and after a deploy: the new commit is ~20% faster.
const BEFORE = [10.2, 9.8, 10.5, 10.1, 9.9, 10.4];
const AFTER = [8.1, 8.3, 7.9, 8.2, 8.0, 8.4];
const P95_BEFORE = [14.0, 13.5, 14.2, 13.9, 14.1, 13.8];
const P95_AFTER = [14.4, 14.6, 14.3, 14.8, 14.5, 14.7];

describe("compareRunSets", () => {
  let project: { id: string; slug: string };
  const where = () => ({ projectSlug: project.slug });

  beforeAll(async () => {
    const slug = `cross-${crypto.randomBytes(4).toString("hex")}`;
    project = { id: (await createProject(db, { name: slug, slug, description: "" }, owner.id)).id, slug };
    const latency = (mean: number, p95: number) => [
      { key: "latency_ms", unit: "ms", direction: "lower_is_better", summary: { n: 1000, mean } },
      { key: "latency_p95_ms", unit: "ms", direction: "lower_is_better", aggregation: "p95", summary: { n: 1000, mean: mean + 1, p95 } },
    ];
    // One experiment, two commits, two variants per commit (only "api" is deployed; "batch" does not change).
    await upload(db, project, {
      experiment: "checkout-api",
      create: true,
      runs: [
        ...BEFORE.map((mean, i) => ({ variant: "api", gitCommit: "aaa1111deadbeef", gitBranch: "main", metrics: latency(mean, P95_BEFORE[i]!) })),
        ...AFTER.map((mean, i) => ({ variant: "api", gitCommit: "bbb2222cafef00d", gitBranch: "release", metrics: latency(mean, P95_AFTER[i]!) })),
        ...[1, 2, 3, 4, 5].map((i) => ({
          variant: "batch",
          gitCommit: "aaa1111deadbeef",
          metrics: [{ key: "latency_ms", unit: "ms", direction: "lower_is_better", summary: { n: 10, mean: 50 + i } }],
        })),
      ],
    });
    // A second experiment measured the same endpoint, latency in seconds and one extra metric.
    await upload(db, project, {
      experiment: "checkout-api-seconds",
      create: true,
      runs: AFTER.map((mean) => ({
        variant: "api",
        metrics: [
          { key: "latency_ms", unit: "s", direction: "lower_is_better", summary: { n: 1000, mean: mean / 1000 } },
          { key: "latency_p95_ms", unit: "ms", direction: "higher_is_better", summary: { n: 1000, mean } },
          { key: "throughput", unit: "req/s", direction: "higher_is_better", summary: { n: 1, mean: 1000 / mean } },
        ],
      })),
    });
    // A commit's 3 runs against another's 9: sizes the U test can resolve (2 / C(12, 3) = 0.009),
    // and 3 against 3, which it never can (0.1 at best).
    await upload(db, project, {
      experiment: "few-against-many",
      create: true,
      runs: [
        ...[10.2, 10.4, 10.3].map((mean) => ({
          variant: "api",
          gitCommit: "f3a0001",
          metrics: [{ key: "latency_ms", unit: "ms", direction: "lower_is_better", summary: { n: 100, mean } }],
        })),
        ...[8.1, 8.3, 7.9, 8.2, 8.0, 8.4, 8.15, 8.05, 8.25].map((mean) => ({
          variant: "api",
          gitCommit: "f9b0002",
          metrics: [{ key: "latency_ms", unit: "ms", direction: "lower_is_better", summary: { n: 100, mean } }],
        })),
        ...[8.1, 8.3, 7.9].map((mean) => ({
          variant: "api",
          gitCommit: "f3c0003",
          metrics: [{ key: "latency_ms", unit: "ms", direction: "lower_is_better", summary: { n: 100, mean } }],
        })),
      ],
    });
    // One run each, with raw samples: compared on the samples, as weak evidence.
    await upload(db, project, {
      experiment: "one-run-each",
      create: true,
      runs: [
        {
          variant: "old",
          gitCommit: "c0ffee1",
          gitCommitMessage: "Parse headers once",
          gitCommitTime: "2026-06-01T09:00:00.000Z",
          metrics: [{ key: "t", unit: "ms", direction: "lower_is_better", samples: Array.from({ length: 60 }, (_, i) => 20 + (i % 9)) }],
        },
        {
          variant: "new",
          gitCommit: "c0ffee2",
          metrics: [{ key: "t", unit: "ms", direction: "lower_is_better", samples: Array.from({ length: 60 }, (_, i) => 12 + (i % 9)) }],
        },
      ],
    });
  });

  it("two commits of one experiment: the faster deploy is better, with the engine's own figures", async () => {
    const result = await compareRunSets(
      db,
      where(),
      { experimentSlug: "checkout-api", variant: "api", gitCommit: "aaa1111deadbeef" },
      { experimentSlug: "checkout-api", variant: "api", gitCommit: "bbb2222cafef00d" },
    );
    expect(result.before).toEqual({ experiment: { slug: "checkout-api", title: "checkout-api" }, variant: "api", gitCommit: "aaa1111deadbeef", runs: 6 });
    expect(result.after).toMatchObject({ variant: "api", gitCommit: "bbb2222cafef00d", runs: 6 });
    expect(result.alpha).toBe(0.05);
    expect(result.notes).toEqual([]);
    const latency = result.metrics.find((m) => m.key === "latency_ms")!;
    expect(latency).toMatchObject({ unit: "ms", direction: "lower_is_better", aggregation: "mean", reason: null });
    const after = latency.comparison!.comparisons[0]!;
    expect(after).toMatchObject({
      candidate: "after",
      baseline: "before",
      verdict: "better",
      evidence: "strong",
      adjustment: "none",
      nBaseline: 6,
      nCandidate: 6,
    });
    // The same engine on the same replicates gives the same comparison, number for number.
    const expected = compareMetric({ key: "latency_ms", unit: "ms", direction: "lower_is_better" }, [
      { name: "before", isBaseline: true, replicates: BEFORE },
      { name: "after", isBaseline: false, replicates: AFTER },
    ]);
    expect(latency.comparison).toEqual(expected);
    expect(after.change.percent).toBeCloseTo((8.15 / 10.15 - 1) * 100, 8);
    expect(after.mannWhitney!.p).toBeCloseTo(2 / 924, 10); // exact: 2 of C(12, 6) arrangements are as extreme

    // The p95 metric is reduced by each run's p95, as the experiment's comparison does: worse after the deploy.
    const p95 = result.metrics.find((m) => m.key === "latency_p95_ms")!;
    expect(p95.aggregation).toBe("p95");
    expect(p95.comparison!.variants.map((v) => v.median)).toEqual([13.95, 14.55]);
    expect(p95.comparison!.comparisons[0]!.verdict).toBe("worse");
  });

  it("swapping the sides swaps the verdict; a commit prefix selects the same runs", async () => {
    const result = await compareRunSets(
      db,
      where(),
      { experimentSlug: "checkout-api", variant: "api", gitCommit: "bbb2222" },
      { experimentSlug: "checkout-api", variant: "api", gitCommit: "aaa1111" },
    );
    expect([result.before.runs, result.after.runs]).toEqual([6, 6]);
    expect(result.metrics.find((m) => m.key === "latency_ms")!.comparison!.comparisons[0]!.verdict).toBe("worse");
  });

  it("a variant without a commit takes all its runs; overlapping sets are pointed out", async () => {
    const result = await compareRunSets(db, where(), { experimentSlug: "checkout-api" }, { experimentSlug: "checkout-api", variant: "api" });
    expect([result.before.runs, result.after.runs]).toEqual([17, 12]);
    expect(result.notes).toEqual(["12 runs are in both sets: pick a variant or a commit on each side to compare different runs"]);
  });

  it("across experiments: metrics matched by key; a different unit, direction or a missing metric is not comparable, with the reason", async () => {
    const result = await compareRunSets(
      db,
      where(),
      { experimentSlug: "checkout-api", variant: "api", gitCommit: "aaa1111deadbeef" },
      { experimentSlug: "checkout-api-seconds" },
    );
    expect(result.metrics.map((m) => [m.key, m.comparison, m.reason])).toEqual([
      ["latency_ms", null, "not comparable: the unit is ms before and s after"],
      ["latency_p95_ms", null, "not comparable: lower is better on one side and higher is better on the other"],
      ["throughput", null, 'experiment "checkout-api" has no metric "throughput"'],
    ]);
    // Only the asked-for metrics.
    const only = await compareRunSets(db, where(), { experimentSlug: "checkout-api" }, { experimentSlug: "checkout-api-seconds" }, ["latency_ms"]);
    expect(only.metrics.map((m) => m.key)).toEqual(["latency_ms"]);
  });

  it("a side without runs of a metric says so", async () => {
    const result = await compareRunSets(db, where(), { experimentSlug: "checkout-api", variant: "batch" }, { experimentSlug: "checkout-api", variant: "api" });
    const p95 = result.metrics.find((m) => m.key === "latency_p95_ms")!;
    expect(p95.comparison).toBeNull();
    expect(p95.reason).toBe("before (checkout-api, batch) has no runs with this metric");
    const none = await compareRunSets(db, where(), { experimentSlug: "checkout-api", gitCommit: "ffffff" }, { experimentSlug: "checkout-api" });
    expect(none.before.runs).toBe(0);
    expect(none.metrics[0]!.reason).toBe("before (checkout-api, commit ffffff) has no runs with this metric");
  });

  it("3 runs against 9 get a verdict (the test can reach α with those sizes); 3 against 3 say why not, with no p", async () => {
    // It said "needs ≥ 4 runs per variant … for the U-test to reach α" beside p = 0.009.
    const unequal = await compareRunSets(
      db,
      where(),
      { experimentSlug: "few-against-many", gitCommit: "f3a0001" },
      { experimentSlug: "few-against-many", gitCommit: "f9b0002" },
    );
    const decided = unequal.metrics[0]!.comparison!.comparisons[0]!;
    expect([decided.nBaseline, decided.nCandidate]).toEqual([3, 9]);
    expect(decided.mannWhitney!.p).toBeCloseTo(2 / 220, 10);
    expect(decided).toMatchObject({ verdict: "better", evidence: "strong" });
    expect(decided.pAdjusted).toBeCloseTo(2 / 220, 10);
    const equal = await compareRunSets(
      db,
      where(),
      { experimentSlug: "few-against-many", gitCommit: "f3a0001" },
      { experimentSlug: "few-against-many", gitCommit: "f3c0003" },
    );
    const undecided = equal.metrics[0]!.comparison!.comparisons[0]!;
    expect(undecided.verdict).toBe("insufficient_data");
    expect(undecided.reason).toBe("with 3 and 3 runs the U-test's smallest p is 0.100 > α = 0.05: more runs are needed");
    // The verdict rests on no p; the test's own figure stays in mannWhitney.
    expect(undecided.pAdjusted).toBeNull();
    expect(undecided.mannWhitney!.p).toBeCloseTo(0.1, 10);
  });

  it("one run on each side is compared on its samples and labelled weak evidence", async () => {
    const result = await compareRunSets(
      db,
      where(),
      { experimentSlug: "one-run-each", gitCommit: "c0ffee1" },
      { experimentSlug: "one-run-each", gitCommit: "c0ffee2" },
    );
    const t = result.metrics[0]!.comparison!.comparisons[0]!;
    expect(t).toMatchObject({ verdict: "better", evidence: "weak" });
    expect(t.weak).toMatchObject({ baselineSamples: 60, candidateSamples: 60 });
  });

  it("report.crossCompare (tRPC): NOT_FOUND for an unknown experiment, UNPROCESSABLE for an unknown variant, BAD_REQUEST for bad input", async () => {
    const ok = await caller.report.crossCompare({
      projectSlug: project.slug,
      before: { experimentSlug: "checkout-api", variant: "api", gitCommit: "aaa1111" },
      after: { experimentSlug: "checkout-api", variant: "api", gitCommit: "bbb2222" },
    });
    expect(ok.metrics[0]!.comparison!.comparisons[0]!.verdict).toBe("better");
    await expect(
      caller.report.crossCompare({ projectSlug: project.slug, before: { experimentSlug: "nope" }, after: { experimentSlug: "checkout-api" } }),
    ).rejects.toMatchObject({
      code: "NOT_FOUND",
      message: 'No experiment "nope" in this project (before)',
    });
    await expect(
      caller.report.crossCompare({ projectSlug: "no-such-project", before: { experimentSlug: "a" }, after: { experimentSlug: "b" } }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(
      caller.report.crossCompare({
        projectSlug: project.slug,
        before: { experimentSlug: "checkout-api" },
        after: { experimentSlug: "checkout-api", variant: "grpc" },
      }),
    ).rejects.toMatchObject({
      code: "UNPROCESSABLE_CONTENT",
      message: 'No variant "grpc" in experiment "checkout-api"; its variants are "api", "batch"',
    });
    await expect(
      caller.report.crossCompare({ projectSlug: project.slug, before: { experimentSlug: "Not A Slug" }, after: { experimentSlug: "checkout-api" } }),
    ).rejects.toMatchObject({ code: "BAD_REQUEST" });
  });

  it("report.runSetOptions lists each experiment's variants and commits, newest commit first", async () => {
    const { experiments } = await caller.report.runSetOptions({ projectSlug: project.slug });
    expect(experiments.map((e) => e.slug)).toEqual(["checkout-api", "checkout-api-seconds", "few-against-many", "one-run-each"]);
    const checkout = experiments[0]!;
    expect(checkout.variants).toEqual([
      { name: "api", runs: 12 },
      { name: "batch", runs: 5 },
    ]);
    expect(checkout.commits.map((c) => [c.gitCommit, c.gitBranch, c.runs]).sort()).toEqual([
      ["aaa1111deadbeef", "main", 11],
      ["bbb2222cafef00d", "release", 6],
    ]);
    expect(experiments[1]!.commits).toEqual([]);
    // Each commit with its message and commit time when the runs gave them, for the picker to show and search.
    expect(
      experiments
        .find((e) => e.slug === "one-run-each")!
        .commits.map((c) => [c.gitCommit, c.message, c.committedAt?.toISOString() ?? null])
        .sort(),
    ).toEqual([
      ["c0ffee1", "Parse headers once", "2026-06-01T09:00:00.000Z"],
      ["c0ffee2", null, null],
    ]);
  });

  it("the compare page's query string stands for a request; empty fields mean 'any'", () => {
    const query = ZCrossComparisonQuery.parse({
      before: "checkout-api",
      beforeVariant: "",
      beforeCommit: "aaa1111",
      after: "checkout-api",
      afterVariant: "api",
      afterCommit: " ",
    });
    expect(requestOfQuery(project.slug, query)).toEqual({
      projectSlug: project.slug,
      before: { experimentSlug: "checkout-api", variant: undefined, gitCommit: "aaa1111" },
      after: { experimentSlug: "checkout-api", variant: "api", gitCommit: undefined },
    });
    expect(requestOfQuery(project.slug, ZCrossComparisonQuery.parse({ before: "checkout-api" }))).toBeNull();
  });
});
