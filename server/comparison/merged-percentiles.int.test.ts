// A variant's merged percentiles grow with its runs: after new runs only their histograms are
// read and added to the last merge, and what comes out is exactly a merge of every run's
// histogram at once. A set that lost a run (deleted) is merged afresh.
import { afterAll, beforeAll, expect, it } from "vitest";
import { db, type Db } from "~/server/db/client";
import { ingestResults, type IngestOptions } from "~/server/runs/ingest-results";
import { unscale } from "~/server/stats/compare";
import { mergeHistograms } from "~/server/stats/histogram";
import { mergedPercentiles, type HistogramGroup } from "./merged-percentiles";
import { uploadProject } from "~/test/upload-project";

let options: IngestOptions;
let results: { id: string; histogram: Uint8Array<ArrayBuffer>; histogramScale: number }[];

beforeAll(async () => {
  options = await uploadProject(db, "merged");
  // Four runs of one variant, each with its own spread, so every merge of a different set differs.
  for (let run = 0; run < 4; run++) {
    const samples = Array.from({ length: 200 }, (_, i) => 10 + run * 3 + ((i * 7919) % 101) / (run + 1));
    await ingestResults(
      db,
      {
        experiment: "grows",
        create: true,
        runs: [
          { variant: "base", status: "succeeded", environment: {}, tags: [], metrics: [{ key: "latency", unit: "ms", direction: "lower_is_better", samples }] },
        ],
      },
      options,
    );
  }
  const rows = await db.runMetricResult.findMany({
    where: { run: { experiment: { projectId: options.projectId } } },
    orderBy: [{ run: { createdAt: "asc" } }, { runId: "asc" }],
    select: { id: true, histogram: true, histogramScale: true },
  });
  results = rows.map((row) => ({ id: row.id, histogram: row.histogram as Uint8Array<ArrayBuffer>, histogramScale: row.histogramScale as number }));
});
afterAll(() => db.$disconnect());

/** The database, noting which result ids each histogram read asks for. */
function recording(asked: string[][]): Db {
  return {
    runMetricResult: {
      findMany: (args: { where: { id: { in: string[] } } }) => {
        asked.push([...args.where.id.in].sort());
        return db.runMetricResult.findMany(args as Parameters<typeof db.runMetricResult.findMany>[0]);
      },
    },
  } as unknown as Db;
}

const group = (count: number, from = 0): HistogramGroup => ({
  resultIds: results.slice(from, from + count).map((r) => r.id),
  scale: results[0]?.histogramScale as number,
  lineage: `grows-${options.projectId}`,
});
const mergedAtOnce = (count: number, from = 0) =>
  unscale(mergeHistograms(results.slice(from, from + count).map((r) => r.histogram)), results[0]?.histogramScale as number);
const ids = (count: number, from = 0) =>
  results
    .slice(from, from + count)
    .map((r) => r.id)
    .sort();

it("adds only the new runs' histograms to the last merge, and equals a merge of all of them", async () => {
  expect(results).toHaveLength(4);
  expect(new Set(results.map((r) => r.histogramScale)).size).toBe(1);
  const asked: string[][] = [];

  expect(await mergedPercentiles(recording(asked), [group(2)])).toEqual([mergedAtOnce(2)]);
  expect(asked).toEqual([ids(2)]);

  // Two more runs: their two histograms are read, not the four.
  const [grown] = await mergedPercentiles(recording(asked), [group(4)]);
  expect(asked.at(-1)).toEqual(ids(2, 2));
  expect(grown).toEqual(mergedAtOnce(4));
  expect(grown).not.toEqual(mergedAtOnce(2));

  // The same set again: nothing read.
  await mergedPercentiles(recording(asked), [group(4)]);
  expect(asked).toHaveLength(2);

  // The first run deleted: the merge cannot lose it, so the three left are merged afresh.
  expect(await mergedPercentiles(recording(asked), [group(3, 1)])).toEqual([mergedAtOnce(3, 1)]);
  expect(asked.at(-1)).toEqual(ids(3, 1));
});
