// A comparison is computed once per state of its experiment and answered from the cache after
// that, and any change it depends on — a new run, a deleted run, a changed setting — computes it
// afresh (the key holds each variant's runsVersion, kept by database triggers).
import { afterAll, beforeAll, expect, it } from "vitest";
import { db } from "~/server/db/client";
import { ingestResults, type IngestOptions } from "~/server/runs/ingest-results";
import { twoVariantUpload } from "~/test/two-variant-upload";
import { getExperimentResults } from "./charts";
import { getComparison } from "./comparison";
import { uploadProject } from "~/test/upload-project";

let options: IngestOptions;
const where = () => ({ projectId: options.projectId });
const page = () => getExperimentResults(db, { projectSlug: options.projectSlug }, "charted");

beforeAll(async () => {
  options = await uploadProject(db, "cmp-cache");
});
afterAll(() => db.$disconnect());

const upload = (shift: number) => twoVariantUpload("cached", shift);

const runCounts = (comparison: Awaited<ReturnType<typeof getComparison>>) => comparison.variants.map((v) => [v.name, v.runs]);

it("answers from the cache until a run is added or deleted or a setting changes", async () => {
  await ingestResults(db, upload(0), options);
  await ingestResults(db, upload(1), options);
  const first = await getComparison(db, where(), "cached");
  expect(await getComparison(db, where(), "cached")).toBe(first);
  expect(runCounts(first)).toEqual([
    ["base", 2],
    ["cand", 2],
  ]);
  expect(() => (first.metrics as unknown[]).push(null)).toThrow(TypeError);

  const stored = await ingestResults(db, upload(2), options);
  const added = await getComparison(db, where(), "cached");
  expect(runCounts(added)).toEqual([
    ["base", 3],
    ["cand", 3],
  ]);

  await db.run.delete({ where: { id: stored.runs[1]?.id as string } });
  expect(runCounts(await getComparison(db, where(), "cached"))).toEqual([
    ["base", 3],
    ["cand", 2],
  ]);

  await db.experiment.updateMany({ where: { projectId: options.projectId, slug: "cached" }, data: { alpha: 0.01 } });
  expect((await getComparison(db, where(), "cached")).experiment.alpha).toBe(0.01);

  // Another baseline is another comparison.
  expect((await getComparison(db, where(), "cached", "cand")).baseline).toBe("cand");
});

// The experiment page's charts are cached under the comparison's key: a view after an upload, a
// deleted run or a changed time series draws it.
const charted = (shift: number) =>
  twoVariantUpload("charted", shift, [
    { key: "rps", unit: "req/s", direction: "higher_is_better" as const, timeSeries: { intervalMs: 1000, values: [100 + shift, 101 + shift, 102 + shift] } },
  ]);

const drawnRuns = (results: Awaited<ReturnType<typeof page>>) => results.charts?.metrics.find((m) => m.key === "latency")?.runs.map((r) => r.runId);
const drawnSeries = (results: Awaited<ReturnType<typeof page>>) =>
  results.charts?.metrics.find((m) => m.key === "rps")?.timeSeries.map((s) => s.points.map((p) => p.value));

it("draws the charts from the cache until the runs or their series change", async () => {
  const first = await ingestResults(db, charted(0), options);
  const before = await page();
  expect((await page()).charts).toBe(before.charts);
  expect(drawnRuns(before)).toEqual(first.runs.map((r) => r.id));

  const second = await ingestResults(db, charted(1), options);
  const added = await page();
  expect(drawnRuns(added)).toEqual([first.runs[0]?.id, second.runs[0]?.id, first.runs[1]?.id, second.runs[1]?.id]);
  expect(added.comparison.variants.map((v) => v.runs)).toEqual([2, 2]);

  await db.$executeRaw`UPDATE "RunTimeSeries" SET "values" = ARRAY[7, 8, 9]::float8[] WHERE "runId" = ${second.runs[1]?.id as string}`;
  expect(drawnSeries(await page())).toEqual([
    [100, 101, 102],
    [101, 102, 103],
    [100, 101, 102],
    [7, 8, 9],
  ]);

  await db.runTimeSeries.deleteMany({ where: { runId: first.runs[0]?.id as string } });
  expect(drawnSeries(await page())).toHaveLength(3);

  await db.run.delete({ where: { id: second.runs[0]?.id as string } });
  expect(drawnRuns(await page())).toEqual([first.runs[0]?.id, first.runs[1]?.id, second.runs[1]?.id]);
});
