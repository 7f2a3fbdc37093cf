// A comparison or page read waits for no upload: while a transaction holds every lock an upload
// takes — the experiment row (FOR NO KEY UPDATE, as an upload that creates variants does), the
// variants' rows (their repetition counters, and runsVersion as the triggers set it) — the reads
// answer, with what was committed before; the upload's runs show in the first read after it commits.
import pg from "pg";
import { afterAll, beforeAll, expect, it } from "vitest";
import { db } from "~/server/db/client";
import { ingestResults, type IngestOptions } from "~/server/runs/ingest-results";
import { twoVariantUpload } from "~/test/two-variant-upload";
import { getExperimentResults } from "./charts";
import { getComparison } from "./comparison";
import { uploadProject } from "~/test/upload-project";

let options: IngestOptions;

beforeAll(async () => {
  options = await uploadProject(db, "reads");
});
afterAll(() => db.$disconnect());

const upload = (shift: number) => twoVariantUpload("beside", shift);

/** `read` answers, or the test fails saying it waited (a read blocked on a lock never answers). */
async function answers<T>(read: () => Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const waited = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error("the read waited for the upload's locks")), 20_000)));
  try {
    return await Promise.race([read(), waited]);
  } finally {
    clearTimeout(timer);
  }
}

it("reads answer while an upload holds its locks, and see the upload once it commits", async () => {
  await ingestResults(db, upload(0), options);
  const comparison = () => getComparison(db, { projectId: options.projectId }, "beside");
  const page = () => getExperimentResults(db, { projectSlug: options.projectSlug }, "beside");
  const runs = (read: Awaited<ReturnType<typeof comparison>>) => read.variants.map((v) => v.runs);
  expect(runs(await comparison())).toEqual([1, 1]);

  const upload2 = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await upload2.connect();
  try {
    await upload2.query("BEGIN");
    const {
      rows: [experiment],
    } = await upload2.query<{ id: string }>(`SELECT "id" FROM "Experiment" WHERE "projectId" = $1 AND "slug" = 'beside' FOR NO KEY UPDATE`, [
      options.projectId,
    ]);
    await upload2.query(`UPDATE "Variant" SET "nextRepetition" = "nextRepetition" + 1, "runsVersion" = txid_current() WHERE "experimentId" = $1`, [
      experiment?.id,
    ]);

    expect(runs(await answers(comparison))).toEqual([1, 1]);
    expect(runs((await answers(page)).comparison)).toEqual([1, 1]);
    await upload2.query("ROLLBACK");
  } finally {
    await upload2.end();
  }

  await ingestResults(db, upload(1), options);
  expect(runs(await comparison())).toEqual([2, 2]);
  const viewed = await page();
  expect(runs(viewed.comparison)).toEqual([2, 2]);
  expect(viewed.charts?.metrics[0]?.runs).toHaveLength(4);
});
