// A PostgreSQL of a test's own (embedded, as the integration run's, but on its own port and data
// directory), for the fault tests that stop, crash and restart it: the other tests' database
// stays up. Restarting keeps the port and the data, so a server started on `url` finds it again.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { startEmbeddedPostgres, type EmbeddedServer } from "../server/db/embedded-postgres";
import { migrate } from "../server/db/migrator";
import { freePort } from "./free-port";

export interface OwnDatabase {
  /** The database's URL (with every migration applied). */
  url: string;
  /** The same server's `postgres` database, for what a test does to the server from outside. */
  adminUrl: string;
  /** The database's name. */
  name: string;
  /** Stops PostgreSQL as `pg_ctl stop -m fast` does (SIGINT): sessions get 57P01 and end. */
  stop(): Promise<void>;
  /** Kills the postmaster with SIGKILL (a crash): the next start recovers from the WAL. */
  kill(): Promise<void>;
  /**
   * Asks the postmaster for a smart shutdown (SIGTERM, `pg_ctl stop -m smart`) while a session of
   * the test's own stays open: until `finish` ends that session, the server runs on and refuses
   * every new connection with 57P03 "the database system is shutting down". The database's other
   * sessions are ended once new ones are refused: they would go on working through the shutdown,
   * and keep it from finishing. `finish` waits for it to stop (start() brings it back).
   */
  shutDownSmartly(): Promise<{ finish(): Promise<void> }>;
  /** Starts it again on the same port and data (nothing when it runs). */
  start(): Promise<void>;
  /** Stops it and deletes its files. */
  remove(): Promise<void>;
}

export async function startOwnDatabase(): Promise<OwnDatabase> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "versus-faults-"));
  // PostgreSQL runs as its own user when the tests run as root: it must be able to enter.
  fs.chmodSync(dataDir, 0o755);
  const port = await freePort();
  let server: EmbeddedServer | undefined = await startEmbeddedPostgres({ dataDir, port });
  const name = "versus_faults";
  await server.ensureDatabase(name);
  const url = server.urlFor(name);
  const adminUrl = server.urlFor("postgres");
  await migrate(url);

  const postmasterPid = () => Number(fs.readFileSync(path.join(dataDir, "postgres", "postmaster.pid"), "utf8").split("\n")[0]);
  const alive = (pid: number) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  const waitForExit = async (pid: number) => {
    while (alive(pid)) await new Promise((resolve) => setTimeout(resolve, 50));
  };
  return {
    url,
    adminUrl,
    name,
    async stop() {
      await server?.stop();
      server = undefined;
    },
    async kill() {
      const pid = postmasterPid();
      process.kill(pid, "SIGKILL");
      // Its backends notice the postmaster's death and exit; a new postmaster refuses to start
      // while any of them still holds the shared memory.
      await waitForExit(pid);
      server = undefined;
    },
    async shutDownSmartly() {
      const holder = new pg.Client({ connectionString: adminUrl });
      await holder.connect();
      const pid = postmasterPid();
      process.kill(pid, "SIGTERM");
      // The postmaster refuses new connections once it has handled the signal.
      for (;;) {
        const probe = new pg.Client({ connectionString: adminUrl });
        const refused = await probe.connect().then(
          () => false,
          (error: { code?: string }) => error.code === "57P03",
        );
        await probe.end().catch(() => undefined);
        if (refused) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      // Only now: a pool that reconnected between an earlier ending and the signal would keep its
      // session (and the shutdown waiting for it) for as long as it kept it busy.
      await endSessionsOf(holder, name);
      return {
        async finish() {
          await holder.end();
          await waitForExit(pid);
          server = undefined;
        },
      };
    },
    async start() {
      server ??= await startEmbeddedPostgres({ dataDir, port });
    },
    async remove() {
      await server?.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Ends every session open to the database (a pool's idle connections too) but the caller's own, as
 * an administrator would, and waits until none is left. A pool may reconnect in the moment a
 * slot is freed, so the ending is repeated until a look finds none (throws after `timeoutMs`).
 */
export async function endSessionsOf(admin: pg.Client, databaseName: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    // pg_terminate_backend only signals: the count below is how one knows they are gone.
    await admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()", [databaseName]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const { rows } = await admin.query<{ count: string }>("SELECT count(*) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()", [
      databaseName,
    ]);
    if (Number(rows[0]?.count) === 0) return;
    if (Date.now() > deadline) throw new Error(`${rows[0]?.count} sessions of ${databaseName} still open after ${timeoutMs} ms of ending them`);
  }
}
