// The migration that gives each variant its repetition counter must start every counter after
// the variant's highest stored repetition (0 for a variant without runs), so the first run stored
// after it never takes a number a run already has.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { databaseBeforeMigration } from "../../test/database-before-migration";
import { withClient, type ThrowawayDatabase } from "../../test/throwaway-database";
import { migrate } from "./migrator";

const MIGRATION = "20261124200000_variant_run_counter";

let database: ThrowawayDatabase;

beforeAll(async () => {
  database = await databaseBeforeMigration(inject("adminDatabaseUrl"), "counter", MIGRATION);
});

afterAll(() => database.drop());

describe(MIGRATION, () => {
  it("starts each variant's counter after its highest repetition", async () => {
    await withClient(database.url, async (client) => {
      const sql = (text: string, values: unknown[] = []) => client.query(text, values);
      await sql(`INSERT INTO "Project" (id, slug, name, "updatedAt") VALUES ('p', 'p', 'P', now())`);
      await sql(`BEGIN`);
      await sql(`INSERT INTO "Experiment" (id, "projectId", slug, title, "updatedAt") VALUES ('e', 'p', 'e', 'E', now())`);
      await sql(
        `INSERT INTO "Variant" (id, "experimentId", name, "isBaseline", position) VALUES ('va', 'e', 'a', true, 0), ('vb', 'e', 'b', false, 1), ('vc', 'e', 'c', false, 2)`,
      );
      await sql(`COMMIT`);
      // a: 0, 1, 7 (a gap); b: 2147483647 (the largest); c: none.
      for (const [id, variant, repetition] of [
        ["r1", "va", 0],
        ["r2", "va", 1],
        ["r3", "va", 7],
        ["r4", "vb", 2147483647],
      ] as const) {
        await sql(`INSERT INTO "Run" (id, "experimentId", "variantId", source, repetition) VALUES ($1, 'e', $2, 'upload', $3)`, [id, variant, repetition]);
      }

      expect((await migrate(database.url)).applied[0]).toBe(MIGRATION);

      const counters = (await sql(`SELECT id, "nextRepetition"::text AS next FROM "Variant" ORDER BY id`)).rows.map((r: { id: string; next: string }) => [
        r.id,
        r.next,
      ]);
      expect(counters).toEqual([
        ["va", "8"],
        ["vb", "2147483648"],
        ["vc", "0"],
      ]);
    });
  });
});
