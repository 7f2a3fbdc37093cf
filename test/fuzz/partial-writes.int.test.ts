// The partial-write rules the API fuzz ends with (partial-writes.ts) find nothing in a database
// written only through the API, and each finds the damage it describes: every rule is broken in
// turn, inside a transaction that is then rolled back.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createPrismaClient, type Db } from "~/server/db/client";
import { migrate } from "~/server/db/migrator";
import { createApiKey } from "~/server/projects/api-keys";
import { ingestResults } from "~/server/runs/ingest-results";
import { createThrowawayDatabase, type ThrowawayDatabase } from "~/test/throwaway-database";
import { runBatch, sleepProject } from "../reliability/fixtures";
import { partialWriteRules, partialWrites } from "./partial-writes";

let database: ThrowawayDatabase;
let db: Db;

beforeAll(async () => {
  database = await createThrowawayDatabase(inject("adminDatabaseUrl"), "partial");
  await migrate(database.url);
  db = createPrismaClient(database.url);
  // Runs with samples and a time series in two experiments, with an idempotency record, and jobs.
  for (const label of ["one", "two"]) {
    const project = await sleepProject(db, label, { sleepMs: 1, measuredRuns: 2 });
    await createApiKey(db, project.slug, "test");
    const runs = ["A", "B"].map((variant) => ({
      variant,
      metrics: [
        { key: "slept_ms", unit: "ms", samples: [1, 2, 3] },
        { key: "tps", unit: "ops/s", direction: "higher_is_better", timeSeries: { offsetsMs: [0, 1000], values: [5, 6] } },
      ],
    }));
    await ingestResults(db, { experiment: project.experimentSlug, create: true, runs } as Parameters<typeof ingestResults>[1], {
      projectId: project.id,
      projectSlug: project.slug,
      source: "upload",
      idempotencyKey: `key-${label}`,
      bodySha256: "0".repeat(64),
      baseUrl: "http://versus.test",
    });
    await runBatch(db, project);
  }
});

afterAll(async () => {
  await db.$disconnect();
  await database.drop();
});

/** The rules broken after `sql` runs, which is then rolled back. */
async function brokenBy(sql: string): Promise<string[]> {
  let found: string[] = [];
  await db
    .$transaction(async (tx) => {
      await tx.$executeRawUnsafe(sql);
      found = await partialWrites(tx);
      throw new Error("roll back");
    })
    .catch((error: Error) => {
      if (error.message !== "roll back") throw error;
    });
  return found;
}

const firstRun = `(SELECT "id" FROM "Run" ORDER BY "createdAt", "id" LIMIT 1)`;
const damage: [string, string][] = [
  ["every run has a result", `DELETE FROM "RunMetricResult" WHERE "runId" = ${firstRun}`],
  [
    "of its own experiment",
    `UPDATE "RunMetricResult" SET "metricId" = (SELECT k."id" FROM "Metric" k JOIN "Run" r ON r."experimentId" <> k."experimentId" WHERE r."id" = ${firstRun} LIMIT 1) WHERE "runId" = ${firstRun} AND "metricId" = (SELECT "metricId" FROM "RunMetricResult" WHERE "runId" = ${firstRun} LIMIT 1)`,
  ],
  ["finite number", `UPDATE "RunMetricResult" SET "p99" = 'Infinity' WHERE "runId" = ${firstRun}`],
  ["idempotency record has the runs", `UPDATE "Run" SET "ingestRequestId" = NULL`],
  [
    "has variants and metrics",
    `INSERT INTO "Experiment" ("id", "projectId", "slug", "title", "updatedAt") SELECT 'bare', "projectId", 'bare', 'bare', now() FROM "Experiment" LIMIT 1`,
  ],
  ["a succeeded measured job has its run", `UPDATE "Job" SET "status" = 'succeeded' WHERE "id" = (SELECT "id" FROM "Job" LIMIT 1)`],
  [
    "a job's run is a run of the job's variant",
    `UPDATE "Job" SET "status" = 'succeeded', "runId" = (SELECT r."id" FROM "Run" r JOIN "Job" j ON j."variantId" <> r."variantId" AND j."experimentId" = r."experimentId" LIMIT 1) WHERE "id" = (SELECT j."id" FROM "Job" j JOIN "Run" r ON j."variantId" <> r."variantId" AND j."experimentId" = r."experimentId" LIMIT 1)`,
  ],
  ["repetition its variant's counter has not handed out", `UPDATE "Variant" SET "nextRepetition" = 0`],
];

describe("partial-write rules", () => {
  it("find nothing in a database written through the services", async () => {
    expect(await partialWrites(db)).toEqual([]);
  });

  it("are each tested below", () => {
    expect(partialWriteRules.map((rule) => damage.filter(([words]) => rule.includes(words)).length)).toEqual(partialWriteRules.map(() => 1));
  });

  it.each(damage)("find the damage: %s", async (words, sql) => {
    const found = await brokenBy(sql);
    expect(found.length, found.join("\n")).toBeGreaterThan(0);
    expect(
      found.some((problem) => problem.includes(words)),
      found.join("\n"),
    ).toBe(true);
  });
});
