// The statement that numbers runs waits for its variants' counters, and reads the highest stored
// repetition (the floor for runs written without the counter) only once the wait is over, so
// runs committed meanwhile count too. Read with the statement's own snapshot, taken before the
// wait, they were invisible: a run committed meanwhile without the counter was numbered again
// (a unique violation). Real PostgreSQL.
import pg from "pg";
import { afterAll, beforeAll, expect, inject, it } from "vitest";
import { uploadProject } from "~/test/upload-project";
import { createPrismaClient } from "../db/client";
import { inSqlTransaction } from "../db/sql-transaction";
import { ZResultsUpload } from "../schemas/results";
import { ingestResults } from "./ingest-results";
import { insertRuns } from "./store-runs";

const db = createPrismaClient(inject("databaseUrl"));
const writer = new pg.Client({ connectionString: inject("databaseUrl") });
let experimentId: string;
let variantId: string;

beforeAll(async () => {
  const options = await uploadProject(db, "highest-repetition");
  await ingestResults(
    db,
    ZResultsUpload.parse({
      experiment: "floor",
      create: true,
      runs: [{ variant: "baseline", metrics: [{ key: "latency_ms", unit: "ms", direction: "lower_is_better", samples: [1, 2, 3] }] }],
    }),
    options,
  );
  const variant = await db.variant.findFirstOrThrow({ where: { name: "baseline", experiment: { slug: "floor", projectId: options.projectId } } });
  experimentId = variant.experimentId;
  variantId = variant.id;
  await writer.connect();
});
afterAll(async () => {
  await writer.end();
  await db.$disconnect();
});

/** A run stored by a writer that skips the counter (on `writer`, inside whatever transaction it has open). */
async function writeWithoutCounter(repetition: number) {
  await writer.query(`INSERT INTO "Run" ("id", "experimentId", "variantId", "source", "repetition") VALUES (gen_random_uuid()::text, $1, $2, 'upload', $3)`, [
    experimentId,
    variantId,
    repetition,
  ]);
}

/** One unnumbered run of the variant, numbered from its counter as an upload's are. */
const numberOneRun = () =>
  inSqlTransaction(db, (tx) =>
    insertRuns(tx, [{ run: { status: "succeeded", environment: {}, tags: [] }, variantId, repetition: null, metrics: [] }], {
      experimentId,
      source: "upload",
      sourceDetail: "",
      now: new Date(),
    }),
  );

it("a run committed without the counter while the numbering waits is a floor: the next number is above it", async () => {
  // A writer that skips the counter holds the variant's row and stores repetition 1, the number
  // the counter (at 1 after the first upload) would hand out next.
  await writer.query("BEGIN");
  await writer.query(`SELECT "id" FROM "Variant" WHERE "id" = $1 FOR NO KEY UPDATE`, [variantId]);
  await writeWithoutCounter(1);
  const { rows } = await writer.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");

  // The numbering statement starts (its snapshot does not see the writer's run) and waits.
  const numbered = numberOneRun();
  const waitingForWriter = async () =>
    (await db.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM pg_stat_activity WHERE ${rows[0]?.pid} = ANY(pg_blocking_pids("pid"))`)[0]?.n;
  await expect.poll(waitingForWriter, { timeout: 10_000, message: "the numbering statement waits for the variant's row" }).toBe(1);
  await writer.query("COMMIT");

  expect((await numbered).map((run) => run?.repetition)).toEqual([2]);
  const repetitions = await db.run.findMany({ where: { variantId }, select: { repetition: true }, orderBy: { repetition: "asc" } });
  expect(repetitions.map((run) => run.repetition)).toEqual([0, 1, 2]);
});

it("looks from the counter up: runs below it are the counter's own, a run above it written without the counter is the floor", async () => {
  // Three runs (0, 1, 2) and the counter at 3 after the test above.
  const highest = async (atLeast: number) =>
    (await writer.query<{ top: string | null }>(`SELECT versus_highest_repetition($1, $2) AS "top"`, [variantId, atLeast])).rows[0]?.top;
  expect(await highest(0)).toBe("2");
  expect(await highest(3)).toBeNull();
  await writeWithoutCounter(7);
  expect(await highest(3)).toBe("7");
  const next = await numberOneRun();
  expect(next.map((run) => run?.repetition)).toEqual([8]);
});
