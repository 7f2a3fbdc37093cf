// Starts one embedded PostgreSQL for the integration run, in a temporary directory on a free
// port, with a fresh database that has every migration applied. Removed again afterwards.
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { startEmbeddedPostgres } from "../server/db/embedded-postgres";
import { migrate } from "../server/db/migrator";
import { freePort } from "./free-port";

export default async function setup(project: TestProject) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "versus-it-"));
  fs.chmodSync(dataDir, 0o755);
  const server = await startEmbeddedPostgres({ dataDir, port: await freePort() });
  const database = `versus_test_${process.pid}`;
  await server.ensureDatabase(database);
  const databaseUrl = server.urlFor(database);
  await migrate(databaseUrl);
  process.env.DATABASE_URL = databaseUrl;
  // Sessions in tests are signed like real ones, with a secret of this run.
  process.env.BETTER_AUTH_SECRET ??= crypto.randomBytes(32).toString("base64url");
  project.provide("databaseUrl", databaseUrl);
  project.provide("adminDatabaseUrl", server.urlFor("postgres"));
  return async () => {
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
}
