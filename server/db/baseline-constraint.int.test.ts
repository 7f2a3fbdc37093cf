// The rules the init migration enforces in the database itself, whatever client writes the rows:
// exactly one baseline variant per experiment (a partial unique index plus a constraint trigger
// checked at COMMIT), cascading deletes, the composite foreign key that keeps a run's variant in
// its own experiment, and the CHECK constraints on run counts. Plain SQL, no Prisma client.
import crypto from "node:crypto";
import pg from "pg";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, inject, it } from "vitest";
import { createThrowawayDatabase, type ThrowawayDatabase } from "../../test/throwaway-database";
import { migrate } from "./migrator";

const id = () => crypto.randomUUID();

/** The PostgreSQL error `promise` rejects with (code and constraint name are what matter). */
async function pgError(promise: Promise<unknown>): Promise<{ code?: string; constraint?: string; message: string }> {
  const outcome = await promise.then(
    () => undefined,
    (error: unknown) => error,
  );
  if (!(outcome instanceof Error)) throw new Error("expected the statement to fail, but it succeeded");
  return outcome as Error & { code?: string; constraint?: string };
}

describe("database-level rules of the init migration", () => {
  // A database of this file's own, so committed test rows never meet other test files.
  let db: ThrowawayDatabase;
  let client: pg.Client;
  beforeAll(async () => {
    db = await createThrowawayDatabase(inject("adminDatabaseUrl"), "rules");
    await migrate(db.url);
  });
  afterAll(() => db.drop());
  beforeEach(async () => {
    client = new pg.Client({ connectionString: db.url });
    await client.connect();
  });
  afterEach(async () => {
    // A failed test may leave its transaction open; it must not leak into the next one.
    await client.query("ROLLBACK").catch(() => {});
    await client.end();
  });

  const sql = (text: string, values: unknown[] = []) => client.query(text, values);

  async function insertProject(): Promise<string> {
    const projectId = id();
    await sql(`INSERT INTO "Project" (id, slug, name, "updatedAt") VALUES ($1, $2, 'Rules', now())`, [projectId, `p-${projectId}`]);
    return projectId;
  }

  async function insertExperiment(projectId: string, columns: { warmupRuns?: number; measuredRuns?: number } = {}) {
    const experimentId = id();
    await sql(
      `INSERT INTO "Experiment" (id, "projectId", slug, title, "warmupRuns", "measuredRuns", "updatedAt")
       VALUES ($1, $2, $3, 'Experiment', $4, $5, now())`,
      [experimentId, projectId, `e-${experimentId}`, columns.warmupRuns ?? 0, columns.measuredRuns ?? 1],
    );
    return experimentId;
  }

  async function insertVariant(experimentId: string, name: string, isBaseline: boolean): Promise<string> {
    const variantId = id();
    // Positions are unique per experiment: the next one.
    await sql(
      `INSERT INTO "Variant" (id, "experimentId", name, "isBaseline", position) VALUES ($1, $2, $3, $4, (SELECT count(*) FROM "Variant" WHERE "experimentId" = $2))`,
      [variantId, experimentId, name, isBaseline],
    );
    return variantId;
  }

  /** A committed experiment with a baseline variant A and a second variant B. */
  async function committedExperiment() {
    await sql("BEGIN");
    const projectId = await insertProject();
    const experimentId = await insertExperiment(projectId);
    const a = await insertVariant(experimentId, "A", true);
    const b = await insertVariant(experimentId, "B", false);
    await sql("COMMIT");
    return { projectId, experimentId, a, b };
  }

  const count = async (table: string, experimentId: string) =>
    Number((await sql(`SELECT count(*) FROM "${table}" WHERE "experimentId" = $1`, [experimentId])).rows[0].count);

  it("refuses, at COMMIT, an experiment whose variants include no baseline", async () => {
    await sql("BEGIN");
    const experimentId = await insertExperiment(await insertProject());
    // Each statement is accepted: the rule is checked when the transaction commits.
    await insertVariant(experimentId, "A", false);
    await insertVariant(experimentId, "B", false);
    const error = await pgError(sql("COMMIT"));
    expect(error).toMatchObject({ code: "23514", constraint: "Experiment_exactly_one_baseline" });
    expect((await sql(`SELECT 1 FROM "Experiment" WHERE id = $1`, [experimentId])).rowCount).toBe(0);
  });

  it("refuses, at COMMIT, an experiment without any variant", async () => {
    await sql("BEGIN");
    await insertExperiment(await insertProject());
    expect(await pgError(sql("COMMIT"))).toMatchObject({ code: "23514", constraint: "Experiment_exactly_one_baseline" });
  });

  it("refuses a second baseline immediately", async () => {
    await sql("BEGIN");
    const experimentId = await insertExperiment(await insertProject());
    await insertVariant(experimentId, "A", true);
    const error = await pgError(insertVariant(experimentId, "B", true));
    expect(error).toMatchObject({ code: "23505", constraint: "Variant_one_baseline_per_experiment" });
  });

  it("lets the baseline move from one variant to another within a transaction", async () => {
    const { experimentId, a, b } = await committedExperiment();
    await sql("BEGIN");
    await sql(`UPDATE "Variant" SET "isBaseline" = false WHERE id = $1`, [a]);
    await sql(`UPDATE "Variant" SET "isBaseline" = true WHERE id = $1`, [b]);
    await sql("COMMIT");
    const { rows } = await sql(`SELECT id FROM "Variant" WHERE "experimentId" = $1 AND "isBaseline"`, [experimentId]);
    expect(rows).toEqual([{ id: b }]);
  });

  it("refuses, at COMMIT, unsetting the baseline without setting another, or deleting it", async () => {
    const { a } = await committedExperiment();
    await sql("BEGIN");
    await sql(`UPDATE "Variant" SET "isBaseline" = false WHERE id = $1`, [a]);
    expect(await pgError(sql("COMMIT"))).toMatchObject({ code: "23514", constraint: "Experiment_exactly_one_baseline" });

    await sql("BEGIN");
    await sql(`DELETE FROM "Variant" WHERE id = $1`, [a]);
    expect(await pgError(sql("COMMIT"))).toMatchObject({ code: "23514", constraint: "Experiment_exactly_one_baseline" });
  });

  it("checks only changes that can remove a baseline, not each run's repetition counter", async () => {
    // An experiment without a baseline, which only a disabled check lets exist (inside one
    // transaction, so no other session ever sees the check disabled): any update of a variant
    // that the check looks at fails at COMMIT, so the counter update shows it is not looked at.
    const { experimentId, a, b } = await committedExperiment();
    await sql("BEGIN");
    await sql(`ALTER TABLE "Variant" DISABLE TRIGGER "Variant_exactly_one_baseline"`);
    await sql(`UPDATE "Variant" SET "isBaseline" = false WHERE id = $1`, [a]);
    await sql(`ALTER TABLE "Variant" ENABLE TRIGGER "Variant_exactly_one_baseline"`);
    await sql("COMMIT");

    await sql(`UPDATE "Variant" SET "nextRepetition" = "nextRepetition" + 1 WHERE "experimentId" = $1`, [experimentId]);
    expect(await pgError(sql(`UPDATE "Variant" SET "name" = 'B2', "isBaseline" = false WHERE id = $1`, [b]))).toMatchObject({
      code: "23514",
      constraint: "Experiment_exactly_one_baseline",
    });
  });

  it("deletes an experiment's variants, metrics and runs with it", async () => {
    const { experimentId, a } = await committedExperiment();
    await sql(`INSERT INTO "Metric" (id, "experimentId", key, unit, direction) VALUES ($1, $2, 'latency', 'ms', 'lower_is_better')`, [id(), experimentId]);
    await sql(`INSERT INTO "Run" (id, "experimentId", "variantId", source) VALUES ($1, $2, $3, 'upload')`, [id(), experimentId, a]);
    expect([await count("Variant", experimentId), await count("Metric", experimentId), await count("Run", experimentId)]).toEqual([2, 1, 1]);

    // Autocommit: the baseline trigger also runs for the cascaded variant deletes, and must let them through.
    await sql(`DELETE FROM "Experiment" WHERE id = $1`, [experimentId]);
    expect([await count("Variant", experimentId), await count("Metric", experimentId), await count("Run", experimentId)]).toEqual([0, 0, 0]);
  });

  it("refuses a run whose variant belongs to another experiment", async () => {
    const first = await committedExperiment();
    const second = await committedExperiment();
    const error = await pgError(
      sql(`INSERT INTO "Run" (id, "experimentId", "variantId", source) VALUES ($1, $2, $3, 'upload')`, [id(), first.experimentId, second.a]),
    );
    expect(error).toMatchObject({ code: "23503", constraint: "Run_variantId_experimentId_fkey" });
  });

  it("refuses negative warm-up runs and fewer than one measured run", async () => {
    const { experimentId, projectId } = await committedExperiment();
    for (const change of [`"warmupRuns" = -1`, `"measuredRuns" = 0`]) {
      const error = await pgError(sql(`UPDATE "Experiment" SET ${change} WHERE id = $1`, [experimentId]));
      expect(error).toMatchObject({ code: "23514", constraint: "Experiment_run_counts_valid" });
    }
    expect(await pgError(insertExperiment(projectId, { warmupRuns: -1 }))).toMatchObject({ constraint: "Experiment_run_counts_valid" });
    expect(await pgError(insertExperiment(projectId, { measuredRuns: 0 }))).toMatchObject({ constraint: "Experiment_run_counts_valid" });
    // The boundaries themselves are allowed.
    await sql(`UPDATE "Experiment" SET "warmupRuns" = 0, "measuredRuns" = 1 WHERE id = $1`, [experimentId]);
  });
});
