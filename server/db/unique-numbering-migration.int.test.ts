// The migration that makes repetitions and positions unique must install on a database that
// already holds duplicates (stored before it, by concurrent uploads): it renumbers them — the
// first run of a number keeps it, later copies move past the variant's highest — and keeps the
// order of variants and metrics. A database at the migration before it is filled with SQL.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { databaseBeforeMigration } from "../../test/database-before-migration";
import { withClient, type ThrowawayDatabase } from "../../test/throwaway-database";
import { migrate } from "./migrator";

const MIGRATION = "20261124144409_unique_numbering";

let database: ThrowawayDatabase;

beforeAll(async () => {
  database = await databaseBeforeMigration(inject("adminDatabaseUrl"), "numbering", MIGRATION);
});

afterAll(() => database.drop());

describe(MIGRATION, () => {
  it("renumbers duplicate repetitions and positions, then refuses new ones", async () => {
    await withClient(database.url, async (client) => {
      const sql = (text: string, values: unknown[] = []) => client.query(text, values);
      await sql(`INSERT INTO "Project" (id, slug, name, "updatedAt") VALUES ('p', 'p', 'P', now())`);
      await sql(`BEGIN`);
      await sql(`INSERT INTO "Experiment" (id, "projectId", slug, title, "updatedAt") VALUES ('e', 'p', 'e', 'E', now())`);
      // Two variants at position 0 (created in this order), one at 5; two metrics at position 0.
      await sql(`INSERT INTO "Variant" (id, "experimentId", name, "isBaseline", position, "createdAt") VALUES
        ('va', 'e', 'a', true, 0, '2026-01-01'), ('vb', 'e', 'b', false, 0, '2026-01-02'), ('vc', 'e', 'c', false, 5, '2026-01-03')`);
      await sql(`INSERT INTO "Metric" (id, "experimentId", key, unit, direction, position, "createdAt") VALUES
        ('mx', 'e', 'x', 'ms', 'lower_is_better', 0, '2026-01-01'), ('my', 'e', 'y', 'ms', 'lower_is_better', 0, '2026-01-02')`);
      await sql(`COMMIT`);
      // Variant a: repetitions 0, 1, 1, 1, 3 (created in that order); variant b: 0, 0.
      const runs: [string, string, number, string][] = [
        ["r1", "va", 0, "2026-02-01"],
        ["r2", "va", 1, "2026-02-02"],
        ["r3", "va", 1, "2026-02-03"],
        ["r4", "va", 1, "2026-02-04"],
        ["r5", "va", 3, "2026-02-05"],
        ["r6", "vb", 0, "2026-02-06"],
        ["r7", "vb", 0, "2026-02-07"],
      ];
      for (const [id, variant, repetition, createdAt] of runs) {
        await sql(`INSERT INTO "Run" (id, "experimentId", "variantId", source, repetition, "createdAt") VALUES ($1, 'e', $2, 'upload', $3, $4)`, [
          id,
          variant,
          repetition,
          createdAt,
        ]);
      }

      // This migration first; later ones (if any) follow it.
      expect((await migrate(database.url)).applied[0]).toBe(MIGRATION);

      const repetitions = (await sql(`SELECT id, repetition FROM "Run" ORDER BY id`)).rows.map((r: { id: string; repetition: number }) => [r.id, r.repetition]);
      expect(repetitions).toEqual([
        ["r1", 0],
        ["r2", 1],
        ["r3", 4],
        ["r4", 5],
        ["r5", 3],
        ["r6", 0],
        ["r7", 1],
      ]);
      const variants = (await sql(`SELECT name, position FROM "Variant" ORDER BY position`)).rows.map((r: { name: string; position: number }) => [
        r.name,
        r.position,
      ]);
      expect(variants).toEqual([
        ["a", 0],
        ["b", 1],
        ["c", 2],
      ]);
      const metrics = (await sql(`SELECT key, position FROM "Metric" ORDER BY position`)).rows.map((r: { key: string; position: number }) => [
        r.key,
        r.position,
      ]);
      expect(metrics).toEqual([
        ["x", 0],
        ["y", 1],
      ]);

      await expect(sql(`INSERT INTO "Run" (id, "experimentId", "variantId", source, repetition) VALUES ('r8', 'e', 'va', 'upload', 4)`)).rejects.toThrow(
        /Run_variantId_repetition_key/,
      );
      await expect(
        sql(`INSERT INTO "Metric" (id, "experimentId", key, unit, direction, position) VALUES ('mz', 'e', 'z', 'ms', 'lower_is_better', 1)`),
      ).rejects.toThrow(/Metric_experimentId_position_key/);
    });
  });
});
