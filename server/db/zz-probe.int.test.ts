import fs from "node:fs";
import path from "node:path";
import { expect, inject, it } from "vitest";
import { openSchemaEngine } from "../../scripts/lib/prisma-schema-engine";
import { prismaMigrationList } from "../../test/prisma-migration-list";
import { createThrowawayDatabase, withClient } from "../../test/throwaway-database";

const schemaText = fs.readFileSync(path.resolve(import.meta.dirname, "../../prisma/schema.prisma"), "utf8");
const dir = path.resolve(import.meta.dirname, "../../prisma/migrations");
const filters = { externalTables: [], externalEnums: [] };
const target = { tag: "schemaDatamodel" as const, files: [{ path: "schema.prisma", content: schemaText }] };
async function attempt(label: string, fn: () => Promise<unknown>) {
  try { const r = await fn(); console.log("OK", label, JSON.stringify(r).slice(0, 1500)); }
  catch (e) { console.log("ERR", label, String(e).slice(0, 600)); }
}

it("probe", async () => {
  const db = await createThrowawayDatabase(inject("adminDatabaseUrl"), "probe");
  try {
    const engine = await openSchemaEngine(db.url, schemaText);
    const ds = { tag: "schemaDatasource" as const, files: target.files, configDir: process.cwd() };
    await attempt("diff empty-db -> schema", () => engine.diff({ from: ds, to: target, script: true, exitCode: null, filters }));
    await withClient(db.url, (c) => c.query(`CREATE TABLE t (id text primary key)`));
    await attempt("diff simple-db -> schema", () => engine.diff({ from: ds, to: target, script: true, exitCode: null, filters }));
    await withClient(db.url, (c) => c.query(`ALTER TABLE t ADD CONSTRAINT c CHECK (length(id) > 0)`));
    await attempt("diff check-db -> schema", () => engine.diff({ from: ds, to: target, script: true, exitCode: null, filters }));
    await withClient(db.url, (c) => c.query(`DROP TABLE t; CREATE TYPE e AS ENUM ('a'); CREATE TABLE t (id text primary key, x e)`));
    await attempt("diff enum-db -> schema", () => engine.diff({ from: ds, to: target, script: true, exitCode: null, filters }));
    await withClient(db.url, (c) => c.query(`DROP TABLE t; CREATE TABLE p (id text primary key); CREATE TABLE t (id text primary key, p text references p(id))`));
    await attempt("diff fk-db -> schema", () => engine.diff({ from: ds, to: target, script: true, exitCode: null, filters }));
    await attempt("diff migrations -> schema", () => engine.diff({ from: { tag: "migrations", ...prismaMigrationList(dir) }, to: target, script: true, exitCode: null, filters }));
    await attempt("diagnose", () => engine.diagnoseMigrationHistory({ migrationsList: prismaMigrationList(dir), optInToShadowDatabase: false, filters }));
    engine.free();
  } finally {
    await db.drop();
  }
  expect(1).toBe(1);
});
