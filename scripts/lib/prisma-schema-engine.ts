// Prisma's own schema engine, loaded from its WebAssembly build (@prisma/schema-engine-wasm).
// The native engine binary cannot be downloaded on these machines, but the WASM build ships in
// the npm package, so `db:diff` and the tests can still ask Prisma itself what SQL a schema needs
// and what it thinks of our migrations, instead of trusting a hand-written copy.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { PrismaPg } from "@prisma/adapter-pg";
import type { ClientConfig } from "pg";
import { parseIntoClientConfig } from "pg-connection-string";
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
  const adapter = bindMigrationAwareSqlAdapterFactory(new WholeScriptPg(parseIntoClientConfig(databaseUrl)));
  return engineBindings.SchemaEngine.new({ datamodels: [["schema.prisma", schema]] }, () => {}, adapter);
}

/**
 * The pg adapter runs a migration script by splitting it on every ";", which breaks
 * $$-quoted function bodies. PostgreSQL's simple query protocol runs a whole multi-statement
 * script at once, as Prisma's native engine and our migrator do; make the adapter do that too.
 */
class WholeScriptPg extends PrismaPg {
  constructor(private readonly clientConfig: ClientConfig) {
    super(clientConfig);
  }
  override async connect() {
    return wholeScripts(await super.connect());
  }
  // The adapter's own shadow database drops the database before closing its pool (so the drop
  // fails) and, given a URL, connects to the real database instead; make it properly here.
  override async connectToShadowDb() {
    const main = await super.connect();
    const name = `prisma_migrate_shadow_db_${crypto.randomUUID()}`;
    await main.executeScript(`CREATE DATABASE "${name}"`);
    const shadow = wholeScripts(await new PrismaPg({ ...this.clientConfig, database: name }).connect());
    const closeShadow = shadow.dispose.bind(shadow);
    shadow.dispose = async () => {
      await closeShadow();
      await main.executeScript(`DROP DATABASE IF EXISTS "${name}"`);
      await main.dispose();
    };
    return shadow;
  }
}

function wholeScripts<A extends object>(adapter: A): A {
  const pgAdapter = adapter as unknown as {
    client: { query(sql: string): Promise<unknown>; on(event: "error", listener: () => void): void };
    onError(error: unknown): never;
  };
  // The shadow database's pool has no error listener; an idle connection cut at shutdown
  // would otherwise crash the process.
  pgAdapter.client.on("error", () => {});
  Object.assign(adapter, {
    executeScript: async (script: string) => {
      try {
        await pgAdapter.client.query(script);
      } catch (error) {
        pgAdapter.onError(error);
      }
    },
  });
  return adapter;
}

const noFilter = { externalTables: [], externalEnums: [] };

/** SQL that takes a database shaped by schema `from` (or an empty one) to schema `to`. */
export async function diffSchemas(engine: SchemaEngine, from: string | "empty", to: string): Promise<string> {
  const datamodel = (content: string) => ({ tag: "schemaDatamodel" as const, files: [{ path: "schema.prisma", content }] });
  const source = from === "empty" ? { tag: "empty" as const } : datamodel(from);
  const result = await engine.diff({ from: source, to: datamodel(to), script: true, exitCode: null, filters: noFilter });
  return result.stdout ?? "";
}

/** The migrations folder in the shape the engine's `migrations` diff source and applyMigrations take. */
export function readMigrationList(dir: string) {
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
