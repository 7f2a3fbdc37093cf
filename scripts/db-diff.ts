// `npm run db:diff -- <name> [--from <git-ref>]`: asks Prisma's own schema engine (WASM build)
// for the SQL that takes the schema as committed at <git-ref> (default HEAD) to the working
// copy of prisma/schema.prisma, and writes it as a new migration folder — what
// `prisma migrate dev --create-only` does, without the engine binary. With no migrations yet,
// it diffs from an empty database.
//
// Why not diff from the migrations themselves: that makes the WASM engine read a live database
// back through @prisma/adapter-pg, which has no mapping for PostgreSQL's "char" catalog columns
// ("Column type 'char' could not be deserialized") — even on an empty database.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { defaultMigrationsDir } from "../server/db/migrator";
import { openDatabase } from "./lib/database";
import { diffSchemas, openSchemaEngine } from "./lib/prisma-schema-engine";

const { positionals, values } = parseArgs({ allowPositionals: true, options: { from: { type: "string", default: "HEAD" } } });
const name = positionals[0]?.replace(/[^a-z0-9_]/gi, "_").toLowerCase();
if (!name) {
  console.error("usage: npm run db:diff -- <migration_name> [--from <git-ref>]");
  process.exit(2);
}

const schemaPath = "prisma/schema.prisma";
const schema = fs.readFileSync(path.resolve(schemaPath), "utf8");
const hasMigrations = fs.readdirSync(defaultMigrationsDir, { withFileTypes: true }).some((e) => e.isDirectory());
const before = hasMigrations ? execFileSync("git", ["show", `${values.from}:${schemaPath}`], { encoding: "utf8" }) : "empty";

const db = await openDatabase();
try {
  const engine = await openSchemaEngine(db.url, schema);
  const sql = await diffSchemas(engine, before, schema);
  if (!sql.trim() || sql.includes("This is an empty migration.")) {
    console.log(`schema.prisma has no changes since ${values.from}: nothing to write.`);
  } else {
    const stamp = new Date().toISOString().replace(/\D/g, "").slice(0, 14);
    const dir = path.join(defaultMigrationsDir, `${stamp}_${name}`);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, "migration.sql"), sql);
    console.log(`wrote ${path.relative(process.cwd(), dir)}/migration.sql — review it, then npm run db:migrate`);
  }
} finally {
  await db.embedded?.stop();
}
