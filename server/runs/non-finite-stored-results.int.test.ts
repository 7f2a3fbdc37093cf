// A run whose stored figures are not finite numbers — written before ingest refused them (an
// overflowing sum stored mean, sd and sum as -Infinity) — must not make its experiment unreadable:
// the comparison, the experiment page (its results and charts), a live share link, the report,
// the cross-experiment comparison and the exports all answer, leaving that run's result out and
// saying so. The poisoned rows are written with SQL, as an old database would hold them.
import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET } from "~/app/api/v1/experiments/[slugOrId]/comparison/route";
import { db } from "~/server/db/client";
import type { TComparison } from "~/server/schemas/comparison";
import { createApiKey } from "~/server/projects/api-keys";
import { getExperimentResults } from "~/server/comparison/charts";
import { compareRunSets } from "~/server/comparison/cross-comparison";
import { listMetricResults } from "~/server/runs/experiment-runs";
import { getExperiment } from "~/server/experiments/experiments";
import { exportSummaryCsv } from "~/server/reports/exports";
import { createProject } from "~/server/projects/projects";
import { buildMarkdownReport } from "~/server/reports/report";
import { createShareLink, viewShareLink } from "~/server/reports/share-links";
import { lognormalSamples } from "~/server/stats/prng";
import { uploadStored } from "~/test/rest-assertions";
import { signedInUser } from "~/test/signed-in";

afterAll(() => db.$disconnect());

const suffix = () => crypto.randomBytes(4).toString("hex");
const RUNS = 3;
const EXPERIMENT = "poisoned";

let project: { id: string; slug: string };
let key: string;
let ownerId: string;
let poisonedRunId: string;

beforeAll(async () => {
  const owner = await signedInUser(db, "owner");
  ownerId = owner.id;
  const slug = `poison-${suffix()}`;
  project = await createProject(db, { name: slug, slug, description: "" }, owner.id);
  key = (await createApiKey(db, slug, "poison test")).secret;
  const runs = ["plain", "gzip"].flatMap((variant, v) =>
    Array.from({ length: RUNS }, (_, r) => ({
      variant,
      metrics: [
        { key: "latency", unit: "ms", direction: "lower_is_better", samples: lognormalSamples(200, { median: 10 + v, sigma: 0.4, seed: 10 * v + r + 1 }) },
        { key: "tps", unit: "ops/s", direction: "higher_is_better", timeSeries: { intervalMs: 1000, values: [100 + v, 101 + v, 102 + v + r] } },
      ],
    })),
  );
  await uploadStored(key, { experiment: EXPERIMENT, create: true, runs });

  // The poisoning: one baseline run's latency as the overflow stored it, and its time series
  // with an infinite point; and one gzip run whose NaN percentile an old bug could have written.
  const [first] = await db.run.findMany({
    where: { experiment: { projectId: project.id } },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    select: { id: true, variant: { select: { name: true } } },
  });
  poisonedRunId = first!.id;
  expect(first!.variant.name).toBe("plain");
  const latency = await db.metric.findFirstOrThrow({ where: { key: "latency", experiment: { projectId: project.id } }, select: { id: true } });
  await db.$executeRaw`UPDATE "RunMetricResult" SET mean = '-Infinity', sd = '-Infinity', sum = '-Infinity' WHERE "runId" = ${first!.id} AND "metricId" = ${latency.id}`;
  await db.$executeRaw`UPDATE "RunTimeSeries" SET "values" = ARRAY[100, 'Infinity'::float8, 102] WHERE "runId" = ${first!.id}`;
  const gzipRun = await db.run.findFirstOrThrow({ where: { experiment: { projectId: project.id }, variant: { name: "gzip" } }, select: { id: true } });
  await db.$executeRaw`UPDATE "RunMetricResult" SET p99 = 'NaN' WHERE "runId" = ${gzipRun.id} AND "metricId" = ${latency.id}`;
});

async function restComparison() {
  const url = `http://test.local/api/v1/experiments/${EXPERIMENT}/comparison`;
  const response = await GET(new Request(url, { headers: { authorization: `Bearer ${key}` } }), { params: Promise.resolve({ slugOrId: EXPERIMENT }) });
  return { status: response.status, body: (await response.json()) as TComparison };
}

describe("stored non-finite figures", () => {
  it("the comparison answers 200, leaving the poisoned results out", async () => {
    const { status, body } = await restComparison();
    expect(status, JSON.stringify(body)).toBe(200);
    const latency = body.metrics.find((m) => m.key === "latency");
    expect(latency?.comparison, latency?.reason ?? "").not.toBeNull();
    // plain lost its poisoned run's latency, gzip the run with a NaN percentile.
    const replicates = latency?.comparison?.variants.map((v) => [v.variant, v.n]);
    expect(replicates).toEqual([
      ["plain", RUNS - 1],
      ["gzip", RUNS - 1],
    ]);
    // tps's stored figures were not touched: every run still counts there.
    const tps = body.metrics.find((m) => m.key === "tps");
    expect(tps?.comparison?.variants.map((v) => v.n)).toEqual([RUNS, RUNS]);
  });

  it("the experiment page's results and charts answer, the poisoned time series left out", async () => {
    const results = await getExperimentResults(db, { projectSlug: project.slug }, EXPERIMENT);
    expect(results.chartsError).toBeNull();
    const tps = results.charts?.metrics.find((m) => m.key === "tps");
    expect(tps?.timeSeries.map((s) => s.runId)).not.toContain(poisonedRunId);
    expect(tps?.timeSeries).toHaveLength(2 * RUNS - 1);
    for (const metric of results.charts?.metrics ?? []) for (const run of metric.runs) expect(Number.isFinite(run.value)).toBe(true);
  });

  it("the experiment page flags the poisoned results with a reason and shows no non-finite figure", async () => {
    const { experiment } = await getExperiment(db, project.slug, EXPERIMENT);
    const pages = await Promise.all(experiment.metrics.map((m) => listMetricResults(db, project.id, EXPERIMENT, m.key, { offset: 0, limit: 100 })));
    const latency = pages[experiment.metrics.findIndex((m) => m.key === "latency")];
    const result = latency?.rows.find((row) => row.run.id === poisonedRunId)?.result;
    expect(result?.unusable).toMatch(/^mean, sd, sum are not finite .*left out of comparisons/);
    expect(result?.mean).toBeNull();
    const results = pages.flatMap((page) => page.rows.map((row) => row.result));
    const figures = results.flatMap((r) => [r.mean, r.sd, r.min, r.max, r.p50, r.p90, r.p95, r.p99, r.p999]);
    expect(figures.filter((x) => x !== null && !Number.isFinite(x))).toEqual([]);
    expect(results.filter((r) => r.unusable !== null)).toHaveLength(2);
  });

  it("a live share link shows the comparison", async () => {
    const link = await createShareLink(db, { projectId: project.id }, ownerId, { experimentSlug: EXPERIMENT, mode: "live", expiresAt: null });
    const shown = await viewShareLink(db, link.token, { countView: false });
    expect(shown?.comparison.metrics.find((m) => m.key === "latency")?.comparison).not.toBeNull();
    expect(shown?.chartsError).toBeNull();
  });

  it("a snapshot share link can be made", async () => {
    const link = await createShareLink(db, { projectId: project.id }, ownerId, { experimentSlug: EXPERIMENT, mode: "snapshot", expiresAt: null });
    expect((await viewShareLink(db, link.token, { countView: false }))?.mode).toBe("snapshot");
  });

  it("the report is written, and names no infinity", async () => {
    const report = await buildMarkdownReport(db, { projectSlug: project.slug }, EXPERIMENT, undefined, { chartFiles: [] });
    expect(report).toContain("latency");
    expect(report).not.toMatch(/Infinity|NaN|∞/);
  });

  it("the cross-experiment comparison and the summary export answer", async () => {
    const cross = await compareRunSets(
      db,
      { projectSlug: project.slug },
      { experimentSlug: EXPERIMENT, variant: "plain" },
      { experimentSlug: EXPERIMENT, variant: "gzip" },
    );
    const latency = cross.metrics.find((m) => m.key === "latency");
    expect(latency?.comparison?.variants.map((v) => v.n)).toEqual([RUNS - 1, RUNS - 1]);
    const summary = await exportSummaryCsv(db, { projectSlug: project.slug }, EXPERIMENT);
    expect(summary.text).not.toMatch(/Infinity|NaN/);
  });
});
