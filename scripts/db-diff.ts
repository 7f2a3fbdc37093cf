// `npm run db:diff -- <name>`: asks Prisma's own schema engine (WASM build) for the SQL that takes
// the database from the current migrations to prisma/schema.prisma, and writes it as a new
// migration folder — what `prisma migrate dev --create-only` does, without the engine binary.
import fs from "node:fs";
import path from "node:path";
import { defaultMigrationsDir } from "../server/db/migrator";
import { openDatabase } from "./lib/database";
import { diffToSchema, openSchemaEngine } from "./lib/prisma-schema-engine";

const name = process.argv[2]?.replace(/[^a-z0-9_]/gi, "_").toLowerCase();
if (!name) {
  console.error("usage: npm run db:diff -- <migration_name>");
  process.exit(2);
}

const schema = fs.readFileSync(path.resolve("prisma/schema.prisma"), "utf8");
const db = await openDatabase();
try {
  const engine = await openSchemaEngine(db.url, schema);
  const hasMigrations = fs.readdirSync(defaultMigrationsDir, { withFileTypes: true }).some((e) => e.isDirectory());
  const sql = await diffToSchema(engine, schema, hasMigrations ? { migrationsDir: defaultMigrationsDir } : "empty");
  if (!sql.trim() || sql.trim() === "-- This is an empty migration.") {
    console.log("schema.prisma and the migrations agree: nothing to write.");
  } else {
    const stamp = new Date().toISOString().replace(/\D/g, "").slice(0, 14);
    const dir = path.join(defaultMigrationsDir, `${stamp}_${name}`);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, "migration.sql"), sql);
    console.log(`wrote ${path.relative(process.cwd(), dir)}/migration.sql — review it, add any SQL-only objects, then npm run db:migrate`);
  }
} finally {
  await db.embedded?.stop();
}
