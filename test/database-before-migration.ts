// A throwaway database at the state just before one migration, for tests that prove that
// migration installs on data written before it: the migrations older than it are copied to a
// folder of their own and applied. drop() removes the database and the folder.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { defaultMigrationsDir, migrate } from "../server/db/migrator";
import { createThrowawayDatabase, type ThrowawayDatabase } from "./throwaway-database";

export async function databaseBeforeMigration(adminDatabaseUrl: string, label: string, migration: string): Promise<ThrowawayDatabase> {
  const database = await createThrowawayDatabase(adminDatabaseUrl, label);
  const before = fs.mkdtempSync(path.join(os.tmpdir(), `versus-before-${label}-`));
  for (const entry of fs.readdirSync(defaultMigrationsDir, { withFileTypes: true })) {
    if (entry.isDirectory() && entry.name < migration)
      fs.cpSync(path.join(defaultMigrationsDir, entry.name), path.join(before, entry.name), { recursive: true });
  }
  await migrate(database.url, before);
  return {
    ...database,
    drop: async () => {
      fs.rmSync(before, { recursive: true, force: true });
      await database.drop();
    },
  };
}
