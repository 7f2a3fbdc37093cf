// Variant.runsVersion's triggers find the variants of changed runs and results by key, whatever
// the planner believes of the tables' sizes. A plan made while "Run" was small joined the changed
// results to the whole table (a sequential scan, later a merge join along its primary key), and
// PL/pgSQL kept it for the connection's life: every later upload on that connection read every run
// stored. Here the planner is made to believe scans cost nothing (as it does of a nearly empty
// table), and the triggers must still read no table whole, by a scan or along an index.
// Real PostgreSQL.
import pg from "pg";
import { afterAll, beforeAll, expect, inject, it } from "vitest";
import { uploadProject } from "~/test/upload-project";
import { createPrismaClient } from "../db/client";
import { ZResultsUpload } from "../schemas/results";
import { ingestResults } from "./ingest-results";

const db = createPrismaClient(inject("databaseUrl"));
const client = new pg.Client({ connectionString: inject("databaseUrl") });
let runId: string;
/** The experiment's runs: enough that reading "Run" along its primary key shows in the counts. */
const RUNS = 30;

beforeAll(async () => {
  const options = await uploadProject(db, "runs-version");
  const stored = await ingestResults(
    db,
    ZResultsUpload.parse({
      experiment: "lookups",
      create: true,
      // Runs enough that reading "Run" along its primary key shows: the one changed below is the
      // last in that order, so a merge join would read every other on the way to it.
      runs: Array.from({ length: RUNS }, (_, i) => ({
        variant: ["baseline", "gzip", "zstd"][i % 3] as string,
        metrics: [{ key: "latency_ms", unit: "ms", direction: "lower_is_better" as const, samples: [1, 2, 3 + i] }],
      })),
    }),
    options,
  );
  runId = stored.runs.map((run) => run.id).sort((a, b) => (a < b ? -1 : 1))[RUNS - 1] as string;
  await client.connect();
});
afterAll(async () => {
  await client.end();
  await db.$disconnect();
});

/** Sequential scans of `table`, and its rows fetched through an index, in the open transaction so far. */
async function readsOf(table: string): Promise<{ scans: number; fetched: number }> {
  const { rows } = await client.query<{ seq_scan: string; idx_tup_fetch: string }>(
    `SELECT "seq_scan", "idx_tup_fetch" FROM pg_stat_xact_user_tables WHERE "relname" = $1`,
    [table],
  );
  return { scans: Number(rows[0]?.seq_scan ?? 0), fetched: Number(rows[0]?.idx_tup_fetch ?? 0) };
}

// Each change names its rows without a scan of a table its trigger reads: under these costs,
// finding the run by its id would scan "Run" itself, so a run is changed by its row's address
// (and counted only for "Variant", the one table its trigger reads).
interface Change {
  what: string;
  /** The tables its trigger reads. */
  reads: string[];
  /** Whether it changes a row, and so the variant's runsVersion. */
  changesRows: boolean;
  statement(run: { id: string; ctid: string }): [string, string[]];
}
const changes: Change[] = [
  { what: "a run", reads: ["Variant"], changesRows: true, statement: (run) => [`UPDATE "Run" SET "tags" = "tags" WHERE "ctid" = $1::tid`, [run.ctid]] },
  {
    what: "a run's result",
    reads: ["Run", "Variant"],
    changesRows: true,
    statement: (run) => [`UPDATE "RunMetricResult" SET "mean" = "mean" WHERE "runId" = $1`, [run.id]],
  },
  {
    what: "a run's time series (it has none: the trigger runs all the same)",
    reads: ["Run", "Variant"],
    changesRows: false,
    statement: (run) => [`DELETE FROM "RunTimeSeries" WHERE "runId" = $1`, [run.id]],
  },
];

it.each(changes)("changing $what bumps its variant's runsVersion reading no table whole", async ({ reads, changesRows, statement: change }) => {
  await client.query("BEGIN");
  try {
    const version = async () =>
      (
        await client.query<{ v: string }>(`SELECT v."runsVersion"::text AS v FROM "Variant" v JOIN "Run" r ON r."variantId" = v."id" WHERE r."id" = $1`, [
          runId,
        ])
      ).rows[0]?.v;
    const old = await version();
    const { rows: runs } = await client.query<{ ctid: string }>(`SELECT "ctid"::text FROM "Run" WHERE "id" = $1`, [runId]);
    const [statement, values] = change({ id: runId, ctid: runs[0]?.ctid as string });
    // What the planner believes of a table it has seen nearly empty: reading it whole is free. And
    // no nested loop, the one join that looks rows up by key: a trigger that joins at all would
    // then read a table whole.
    await client.query("SET LOCAL seq_page_cost = 0; SET LOCAL cpu_tuple_cost = 0; SET LOCAL cpu_operator_cost = 0; SET LOCAL enable_nestloop = off");
    const readsNow = async () => Object.fromEntries(await Promise.all(reads.map(async (table) => [table, await readsOf(table)] as const)));
    const before = await readsNow();
    await client.query(statement, values);
    const after = await readsNow();
    // No scan, and through an index at most the one row changed: its run, its variant.
    for (const table of reads) {
      expect(after[table]?.scans, `sequential scans of "${table}"`).toBe(before[table]?.scans);
      expect((after[table]?.fetched ?? 0) - (before[table]?.fetched ?? 0), `rows of "${table}" fetched through an index`).toBeLessThanOrEqual(1);
    }
    await client.query("RESET seq_page_cost; RESET cpu_tuple_cost; RESET cpu_operator_cost; RESET enable_nestloop");
    const { rows } = await client.query<{ now: string }>("SELECT txid_current()::text AS now");
    // A statement that changed no row (no series) leaves the version as it was.
    expect(await version()).toBe(changesRows ? rows[0]?.now : old);
  } finally {
    await client.query("ROLLBACK");
  }
});
