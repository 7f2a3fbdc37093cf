// The migrator must behave like `prisma migrate deploy`: same bookkeeping in `_prisma_migrations`,
// each migration applied once even when two processes start together, a failed migration leaving
// nothing behind, and Prisma's own engine agreeing with what it recorded.
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, inject, it } from "vitest";
import { openSchemaEngine, readMigrationList } from "../../scripts/lib/prisma-schema-engine";
import { createThrowawayDatabase, withClient, type ThrowawayDatabase } from "../../test/throwaway-database";
import { defaultMigrationsDir, migrate, MigrationError } from "./migrator";

const schemaText = fs.readFileSync(path.resolve(import.meta.dirname, "../../prisma/schema.prisma"), "utf8");
const noFilter = { externalTables: [], externalEnums: [] };

const migrationNames = fs
  .readdirSync(defaultMigrationsDir, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();

// Computed here rather than with migrationChecksum, so the test checks the migrator's arithmetic.
const sha256OfFile = (name: string) =>
  crypto
    .createHash("sha256")
    .update(fs.readFileSync(path.join(defaultMigrationsDir, name, "migration.sql")))
    .digest("hex");

interface MigrationRow {
  migration_name: string;
  checksum: string;
  finished_at: Date | null;
  rolled_back_at: Date | null;
  applied_steps_count: number;
  logs: string | null;
}

const migrationRows = (url: string) =>
  withClient(url, async (client) => {
    const { rows } = await client.query<MigrationRow>(
      `SELECT migration_name, checksum, finished_at, rolled_back_at, applied_steps_count, logs
       FROM "_prisma_migrations" ORDER BY migration_name, started_at`,
    );
    return rows;
  });

const tableExists = (url: string, table: string) =>
  withClient(url, async (client) => {
    const { rows } = await client.query<{ oid: string | null }>(`SELECT to_regclass($1)::text AS oid`, [`public."${table}"`]);
    return rows[0]?.oid != null;
  });

describe("migrate()", () => {
  const databases: ThrowawayDatabase[] = [];
  const tempDirs: string[] = [];
  const freshDatabase = async () => {
    const db = await createThrowawayDatabase(inject("adminDatabaseUrl"), "migrator");
    databases.push(db);
    return db;
  };
  afterEach(async () => {
    await Promise.all(databases.splice(0).map((db) => db.drop()));
    for (const dir of tempDirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });

  /** A migrations folder holding the given migration.sql files, by folder name. */
  function migrationsDir(files: Record<string, string>): string {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "versus-migrations-"));
    tempDirs.push(dir);
    for (const [name, sql] of Object.entries(files)) {
      fs.mkdirSync(path.join(dir, name));
      fs.writeFileSync(path.join(dir, name, "migration.sql"), sql);
    }
    return dir;
  }

  it("applies every migration to an empty database and records each as Prisma does", async () => {
    const db = await freshDatabase();
    const result = await migrate(db.url);
    expect(result).toEqual({ applied: migrationNames, alreadyApplied: [], modified: [] });

    const rows = await migrationRows(db.url);
    expect(rows.map((row) => row.migration_name)).toEqual(migrationNames);
    for (const row of rows) {
      expect(row.finished_at).toBeInstanceOf(Date);
      expect(row.rolled_back_at).toBeNull();
      expect(row.applied_steps_count).toBe(1);
      expect(row.checksum).toBe(sha256OfFile(row.migration_name));
    }
  });

  it("applies nothing the second time", async () => {
    const db = await freshDatabase();
    await migrate(db.url);
    const before = await migrationRows(db.url);
    expect(await migrate(db.url)).toEqual({ applied: [], alreadyApplied: migrationNames, modified: [] });
    expect(await migrationRows(db.url)).toEqual(before);
  });

  it("applies each migration exactly once when several processes migrate at the same moment", async () => {
    const db = await freshDatabase();
    const results = await Promise.all([migrate(db.url), migrate(db.url), migrate(db.url)]);
    expect(results.flatMap((result) => result.applied).sort()).toEqual(migrationNames);
    expect((await migrationRows(db.url)).map((row) => row.migration_name)).toEqual(migrationNames);
  });

  it("rolls a failing migration back completely, names it, and records nothing for it", async () => {
    const db = await freshDatabase();
    const dir = migrationsDir({
      "20260101000000_good": `CREATE TABLE "good_table" ("id" INTEGER PRIMARY KEY);`,
      "20260102000000_bad": `CREATE TABLE "half_done" ("id" INTEGER PRIMARY KEY);\nSELECT * FROM "no_such_table";`,
    });

    const failure = await migrate(db.url, dir).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(MigrationError);
    expect((failure as Error).message).toContain("20260102000000_bad");
    expect((failure as Error).message).toContain("no_such_table");

    expect(await tableExists(db.url, "good_table")).toBe(true);
    expect(await tableExists(db.url, "half_done")).toBe(false);
    const rows = await migrationRows(db.url);
    expect(rows.map((row) => row.migration_name)).toEqual(["20260101000000_good"]);
    expect(rows.every((row) => row.finished_at !== null)).toBe(true);

    // Nothing half-recorded blocks the next attempt: once the file is fixed, it applies.
    fs.writeFileSync(path.join(dir, "20260102000000_bad", "migration.sql"), `CREATE TABLE "half_done" ("id" INTEGER PRIMARY KEY);`);
    expect((await migrate(db.url, dir)).applied).toEqual(["20260102000000_bad"]);
  });
});

describe("migrate() and Prisma's own schema engine", () => {
  const databases: ThrowawayDatabase[] = [];
  afterEach(async () => {
    await Promise.all(databases.splice(0).map((db) => db.drop()));
  });
  const freshDatabase = async () => {
    const db = await createThrowawayDatabase(inject("adminDatabaseUrl"), "prisma_compat");
    databases.push(db);
    return db;
  };

  const closeConnectionsOf = (db: ThrowawayDatabase) =>
    withClient(inject("adminDatabaseUrl"), (client) => client.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1`, [db.name]));

  async function withEngine<T>(url: string, fn: (engine: Awaited<ReturnType<typeof openSchemaEngine>>) => Promise<T>): Promise<T> {
    const engine = await openSchemaEngine(url, schemaText);
    try {
      return await fn(engine);
    } finally {
      engine.free();
    }
  }

  it("records the same migrations with the same checksums as Prisma's applyMigrations", async () => {
    const [byPrisma, byUs] = await Promise.all([freshDatabase(), freshDatabase()]);
    const applied = await withEngine(byPrisma.url, (engine) =>
      engine.applyMigrations({ migrationsList: readMigrationList(defaultMigrationsDir), filters: noFilter }),
    );
    expect(applied.appliedMigrationNames).toEqual(migrationNames);
    await migrate(byUs.url);

    const bookkeeping = (rows: MigrationRow[]) =>
      rows.map(({ migration_name, checksum, applied_steps_count, rolled_back_at, logs, finished_at }) => ({
        migration_name,
        checksum,
        applied_steps_count,
        rolled_back_at,
        logs,
        finished: finished_at !== null,
      }));
    expect(bookkeeping(await migrationRows(byUs.url))).toEqual(bookkeeping(await migrationRows(byPrisma.url)));

    // The same table definition too, so either tool can take over the other's database.
    const columns = (url: string) =>
      withClient(url, async (client) => {
        const { rows } = await client.query(
          `SELECT column_name, data_type, character_maximum_length, is_nullable, column_default
           FROM information_schema.columns WHERE table_name = '_prisma_migrations' ORDER BY ordinal_position`,
        );
        return rows;
      });
    expect(await columns(byUs.url)).toEqual(await columns(byPrisma.url));

    // Our migrator accepts what Prisma applied as already done, checksums included. Prisma's
    // engine holds the migrate advisory lock on its pooled connection until that connection
    // closes (as the CLI process exits); close it, or migrate() rightly waits for the lock.
    await closeConnectionsOf(byPrisma);
    expect(await migrate(byPrisma.url)).toEqual({ applied: [], alreadyApplied: migrationNames, modified: [] });
  });

  it("leaves nothing pending, failed or edited in Prisma's eyes", async () => {
    const db = await freshDatabase();
    await migrate(db.url);
    await withEngine(db.url, async (engine) => {
      const migrationsList = readMigrationList(defaultMigrationsDir);
      expect(await engine.diagnoseMigrationHistory({ migrationsList, optInToShadowDatabase: false, filters: noFilter })).toEqual({
        editedMigrationNames: [],
        failedMigrationNames: [],
        hasMigrationsTable: true,
        history: null,
      });
      expect(await engine.applyMigrations({ migrationsList, filters: noFilter })).toEqual({ appliedMigrationNames: [] });
    });
  });
});
