// Applies the SQL migrations in prisma/migrations and records them in `_prisma_migrations`
// exactly as `prisma migrate deploy` does (same table, same SHA-256 checksum of migration.sql),
// so an installation can switch between this migrator and Prisma's CLI in either direction.
// Prisma's schema-engine binary cannot be downloaded on every machine; this needs only `pg`.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";

// The advisory lock key Prisma Migrate itself takes, so the two also exclude each other.
const PRISMA_MIGRATE_LOCK_KEY = 72707369;

const CREATE_MIGRATIONS_TABLE = `
CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`;

export interface MigrationFile {
  name: string;
  sql: string;
  checksum: string;
}

export interface MigrateResult {
  applied: string[];
  alreadyApplied: string[];
  /** Applied migrations whose file changed since; Prisma warns about these too. */
  modified: string[];
}

export class MigrationError extends Error {}

/** Prisma's checksum: lowercase hex SHA-256 of the migration.sql bytes. */
export function migrationChecksum(sql: string): string {
  return crypto.createHash("sha256").update(sql, "utf8").digest("hex");
}

export function readMigrations(migrationsDir: string): MigrationFile[] {
  return fs
    .readdirSync(migrationsDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort()
    .map((name) => {
      const sql = fs.readFileSync(path.join(migrationsDir, name, "migration.sql"), "utf8");
      return { name, sql, checksum: migrationChecksum(sql) };
    });
}

export const defaultMigrationsDir = path.resolve(import.meta.dirname, "../../prisma/migrations");

/**
 * Applies every migration not yet recorded, each in its own transaction, under Prisma's
 * advisory lock so that two processes starting at once apply each migration exactly once.
 */
export async function migrate(databaseUrl: string, migrationsDir = defaultMigrationsDir): Promise<MigrateResult> {
  const migrations = readMigrations(migrationsDir);
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query("SELECT pg_advisory_lock($1)", [PRISMA_MIGRATE_LOCK_KEY]);
    try {
      return await applyPending(client, migrations);
    } finally {
      await client.query("SELECT pg_advisory_unlock($1)", [PRISMA_MIGRATE_LOCK_KEY]);
    }
  } finally {
    await client.end();
  }
}

async function applyPending(client: pg.Client, migrations: MigrationFile[]): Promise<MigrateResult> {
  await client.query(CREATE_MIGRATIONS_TABLE);
  const { rows } = await client.query<{ migration_name: string; checksum: string; finished_at: Date | null; rolled_back_at: Date | null }>(
    `SELECT migration_name, checksum, finished_at, rolled_back_at FROM "_prisma_migrations" ORDER BY started_at`,
  );

  const failed = rows.find((row) => row.finished_at === null && row.rolled_back_at === null);
  if (failed) {
    throw new MigrationError(
      `Migration ${failed.migration_name} started but did not finish. Fix the database by hand, then mark it ` +
        `rolled back (UPDATE "_prisma_migrations" SET rolled_back_at = now() WHERE migration_name = '${failed.migration_name}') and start again.`,
    );
  }

  const done = new Map(rows.filter((row) => row.finished_at !== null && row.rolled_back_at === null).map((row) => [row.migration_name, row.checksum]));
  const result: MigrateResult = { applied: [], alreadyApplied: [], modified: [] };

  for (const migration of migrations) {
    const recorded = done.get(migration.name);
    if (recorded !== undefined) {
      result.alreadyApplied.push(migration.name);
      if (recorded !== migration.checksum) result.modified.push(migration.name);
      continue;
    }
    await applyOne(client, migration);
    result.applied.push(migration.name);
  }
  return result;
}

async function applyOne(client: pg.Client, migration: MigrationFile): Promise<void> {
  const id = crypto.randomUUID();
  await client.query("BEGIN");
  try {
    await client.query(`INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, applied_steps_count) VALUES ($1, $2, $3, now(), 0)`, [
      id,
      migration.checksum,
      migration.name,
    ]);
    await client.query(migration.sql);
    await client.query(`UPDATE "_prisma_migrations" SET finished_at = now(), applied_steps_count = 1 WHERE id = $1`, [id]);
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK");
    const message = error instanceof Error ? error.message : String(error);
    throw new MigrationError(`Migration ${migration.name} failed and was rolled back: ${message}`);
  }
}
