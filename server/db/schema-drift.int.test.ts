// schema.prisma and prisma/migrations must never drift apart silently: the database the
// migrations build has to contain every model, field, type, nullability, relation, unique
// constraint and index schema.prisma declares, and nothing more than the SQL-only objects.
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from "vitest";
import { diffSchemas, openSchemaEngine } from "../../scripts/lib/prisma-schema-engine";
import { createThrowawayDatabase, withClient, type ThrowawayDatabase } from "../../test/throwaway-database";
import { migrate } from "./migrator";
import { actualSchemaFromDatabase, compareSchemas, expectedSchemaFromPrisma, NO_EXTRAS, type SchemaDescription } from "./schema-drift";

const root = path.resolve(import.meta.dirname, "../..");
const schemaText = fs.readFileSync(path.join(root, "prisma/schema.prisma"), "utf8");

const describeDatabase = (url: string) => withClient(url, (client) => actualSchemaFromDatabase(client));

/** A fresh database with only the DDL Prisma's own engine writes for `schema` (from empty). */
async function databaseFromPrismaDdl(schema: string, db: ThrowawayDatabase): Promise<SchemaDescription> {
  const engine = await openSchemaEngine(db.url, schema);
  try {
    const ddl = await diffSchemas(engine, "empty", schema);
    await withClient(db.url, (client) => client.query(ddl));
  } finally {
    engine.free();
  }
  return describeDatabase(db.url);
}

describe("schema.prisma against the migrated integration database", () => {
  let client: pg.Client;
  beforeAll(async () => {
    client = new pg.Client({ connectionString: inject("databaseUrl") });
    await client.connect();
  });
  afterAll(() => client.end());

  it("has every model, field, type, nullability, relation, unique constraint and index, and only the SQL-only extras", async () => {
    const problems = compareSchemas(expectedSchemaFromPrisma(schemaText), await actualSchemaFromDatabase(client));
    // Joined, so a failure prints one readable list rather than an array diff.
    expect(problems.join("\n")).toBe("");
  });
});

describe("schema.prisma against databases built from nothing", () => {
  const databases: ThrowawayDatabase[] = [];
  const freshDatabase = async (label: string) => {
    const db = await createThrowawayDatabase(inject("adminDatabaseUrl"), label);
    databases.push(db);
    return db;
  };
  afterEach(async () => {
    await Promise.all(databases.splice(0).map((db) => db.drop()));
  });

  it("all migrations applied to an empty database give exactly schema.prisma plus the SQL-only objects", async () => {
    const db = await freshDatabase("drift");
    await migrate(db.url);
    expect(compareSchemas(expectedSchemaFromPrisma(schemaText), await describeDatabase(db.url)).join("\n")).toBe("");
  });

  // Prisma's engine cannot read a live database back here (its pg adapter fails on the catalog's
  // "char" columns), so its `diff` from the database is out of reach. Instead, the DDL the engine
  // writes for schema.prisma builds one database and the migrations another; the two must differ
  // only by the SQL-only objects, defaults included — judged column by column from pg_catalog.
  it("the migrations build what Prisma's own engine builds for schema.prisma, plus only the SQL-only objects", async () => {
    const [prismaDb, migratedDb] = await Promise.all([freshDatabase("prisma_ddl"), freshDatabase("migrated")]);
    const builtByPrisma = await databaseFromPrismaDdl(schemaText, prismaDb);
    await migrate(migratedDb.url);
    const builtByMigrations = await describeDatabase(migratedDb.url);

    expect(compareSchemas(builtByPrisma, builtByMigrations).join("\n")).toBe("");
    // And our reading of schema.prisma agrees with the engine's DDL, with nothing extra allowed.
    expect(compareSchemas(expectedSchemaFromPrisma(schemaText), builtByPrisma, NO_EXTRAS).join("\n")).toBe("");
  });

  it("expectedSchemaFromPrisma reads every column type, mapping, key and relation shape as Prisma's engine does", async () => {
    const fixture = fs.readFileSync(path.join(root, "test/fixtures/every-column-type.prisma"), "utf8");
    const builtByPrisma = await databaseFromPrismaDdl(fixture, await freshDatabase("types"));
    expect(Object.keys(builtByPrisma.tables)).toContain("_EverythingToTag");
    expect(compareSchemas(expectedSchemaFromPrisma(fixture), builtByPrisma, NO_EXTRAS).join("\n")).toBe("");
  });
});
