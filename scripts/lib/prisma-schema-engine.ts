// Prisma's own schema engine, loaded from its WebAssembly build (@prisma/schema-engine-wasm).
// The native engine binary cannot be downloaded on these machines, but the WASM build ships in
// the npm package, so `db:diff` and the tests can still ask Prisma itself what SQL a schema needs
// and what it thinks of our migrations, instead of trusting a hand-written copy.
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { PrismaPg } from "@prisma/adapter-pg";
import { bindMigrationAwareSqlAdapterFactory } from "@prisma/driver-adapter-utils";
import * as engineBindings from "@prisma/schema-engine-wasm/schema_engine_bg";

const require = createRequire(import.meta.url);
let loaded: Promise<void> | undefined;

function loadWasm(): Promise<void> {
  loaded ??= (async () => {
    // The package's "exports" hides its folder, so find it next to its JS entry point.
    const entry = require.resolve("@prisma/schema-engine-wasm");
    const wasm = fs.readFileSync(path.join(path.dirname(entry), "schema_engine_bg.wasm"));
    const { instance } = await WebAssembly.instantiate(wasm, {
      "./schema_engine_bg.js": engineBindings as unknown as WebAssembly.ModuleImports,
    });
    const exports = instance.exports as WebAssembly.Exports & { __wbindgen_start?: () => void };
    engineBindings.__wbg_set_wasm(exports);
    exports.__wbindgen_start?.();
  })();
  return loaded;
}

export type SchemaEngine = engineBindings.SchemaEngine;

/** Opens Prisma's schema engine against a real database (it needs one even to diff). */
export async function openSchemaEngine(databaseUrl: string, schema: string): Promise<SchemaEngine> {
  await loadWasm();
  const adapter = bindMigrationAwareSqlAdapterFactory(new PrismaPg({ connectionString: databaseUrl }));
  return engineBindings.SchemaEngine.new({ datamodels: [["schema.prisma", schema]] }, () => {}, adapter);
}

const noFilter = { externalTables: [], externalEnums: [] };

/** SQL that takes the database from the state of `fromMigrations` (or empty) to `schema`. */
export async function diffToSchema(
  engine: SchemaEngine,
  schema: string,
  from: { migrationsDir: string } | "empty",
): Promise<string> {
  const target = { tag: "schemaDatamodel" as const, files: [{ path: "schema.prisma", content: schema }] };
  const source =
    from === "empty" ? { tag: "empty" as const } : { tag: "migrations" as const, ...readMigrationList(from.migrationsDir) };
  const result = await engine.diff({ from: source, to: target, script: true, exitCode: null, filters: noFilter });
  return result.stdout ?? "";
}

function readMigrationList(dir: string) {
  const names = fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();
  return {
    baseDir: dir,
    lockfile: { path: "migration_lock.toml", content: fs.readFileSync(path.join(dir, "migration_lock.toml"), "utf8") },
    migrationDirectories: names.map((name) => ({
      path: name,
      migrationFile: { path: "migration.sql", content: { tag: "ok" as const, value: fs.readFileSync(path.join(dir, name, "migration.sql"), "utf8") } },
    })),
    shadowDbInitScript: "",
  };
}
