// Where the scripts get their database: DATABASE_URL when set, otherwise the project-local
// embedded PostgreSQL under VERSUS_DATA_DIR (default .data/) — reused when it is already
// running (e.g. `npm run db:migrate` while `npm start` is up), started for the caller otherwise.
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { embeddedUrl, readEmbeddedCredentials, startEmbeddedPostgres, type EmbeddedServer } from "../../server/db/embedded-postgres";
import { env } from "../../server/core/env";
import { serverProcessCount } from "./worker-processes";

export interface Database {
  url: string;
  /** The embedded server when one was started for this process, so the caller can stop it. */
  embedded?: EmbeddedServer;
}

const DATABASE = "versus";
// The checkout's own data folder: as root, PostgreSQL's user may be let through it to a data
// directory inside it, such as .data/e2e-3205 (server/db/postgres-user-access.ts).
const checkoutData = path.resolve(import.meta.dirname, "../../.data");

export async function openDatabase(log: (line: string) => void = () => {}): Promise<Database> {
  if (env.DATABASE_URL) return { url: env.DATABASE_URL };
  const dataDir = path.resolve(env.VERSUS_DATA_DIR);
  const running = await runningEmbeddedUrl(dataDir);
  if (running) return { url: running };
  const inCheckoutData = dataDir.startsWith(`${checkoutData}${path.sep}`);
  const embedded = await startEmbeddedPostgres({
    dataDir,
    port: env.VERSUS_EMBEDDED_PG_PORT,
    log,
    reachableFrom: inCheckoutData ? checkoutData : dataDir,
    maxConnections: connectionsFor(serverProcessCount()),
  });
  await embedded.ensureDatabase(DATABASE);
  return { url: embedded.urlFor(DATABASE), embedded };
}

/** The URL of an embedded server another process already runs on this data directory, if any. */
async function runningEmbeddedUrl(dataDir: string): Promise<string | undefined> {
  const pidFile = path.join(dataDir, "postgres", "postmaster.pid");
  const credentials = readEmbeddedCredentials(dataDir);
  if (!credentials || !fs.existsSync(pidFile)) return undefined;
  // postmaster.pid: line 1 is the PID, line 4 the port.
  const port = Number(fs.readFileSync(pidFile, "utf8").split("\n")[3]);
  if (!Number.isInteger(port)) return undefined;
  const url = embeddedUrl(credentials, port, DATABASE);
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    return url;
  } catch {
    return undefined; // a stale pid file from a crash: start the server ourselves
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * Connections the embedded PostgreSQL must allow: each server process's pool (10) and LISTEN
 * connections, with room for the scripts, the CLI and psql; never below PostgreSQL's default.
 */
function connectionsFor(serverProcesses: number): number {
  return Math.max(100, 40 + 12 * serverProcesses);
}
