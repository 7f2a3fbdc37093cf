// A connection PostgreSQL ends is worth a warning while the server runs, and not while the process
// is stopping (a Ctrl-C reaches the embedded PostgreSQL too, which then ends every connection):
// the pool's idle connections and a LISTEN connection, each ended on a real PostgreSQL with
// pg_terminate_backend, before and after the process is marked as stopping.
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, inject, it, vi } from "vitest";
import { JobWakeups } from "../agents/wakeups";
import { markProcessStopping } from "../core/process-stopping";
import { createPrismaClient, type Db } from "./client";
import { Prisma } from "./generated/client";
import { poolOf, preparedQuery } from "./prepared-statements";

const url = inject("databaseUrl");
const admin = new pg.Client({ connectionString: url });
let db: Db;
const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);

beforeAll(async () => {
  await admin.connect();
  db = createPrismaClient(url);
});
afterAll(async () => {
  await db.$disconnect();
  await admin.end();
  warn.mockRestore();
});
afterEach(() => {
  warn.mockClear();
  // The mark is the process's (on globalThis); the next test starts with a running server again.
  delete (globalThis as { versusProcessStopping?: boolean }).versusProcessStopping;
});

const warnings = () => warn.mock.calls.map((call) => String(call[0]));

/** Ends one idle connection of the pool and waits until the pool has dropped it. */
async function endIdleConnection() {
  const pool = poolOf(db);
  const [row] = await preparedQuery<{ pid: number }>(db, Prisma.sql`SELECT pg_backend_pid() AS "pid"`);
  const before = pool.totalCount;
  const dropped = new Promise<void>((resolve) => pool.once("error", () => resolve()));
  await admin.query("SELECT pg_terminate_backend($1)", [row?.pid]);
  await dropped;
  await expect.poll(() => pool.totalCount).toBe(before - 1);
}

describe("an idle connection of the pool that PostgreSQL ends", () => {
  it("is reported while the server runs", async () => {
    await endIdleConnection();
    expect(warnings()).toEqual([expect.stringMatching(/^database: an idle connection ended \(terminating connection due to administrator command\)$/)]);
  });

  it("is not reported once the process is stopping", async () => {
    markProcessStopping();
    await endIdleConnection();
    expect(warnings()).toEqual([]);
  });
});

describe("a LISTEN connection that PostgreSQL ends", () => {
  const listenerPids = async () =>
    (await admin.query<{ pid: number }>("SELECT pid FROM pg_stat_activity WHERE application_name = 'versus job wakeups'")).rows.map((row) => row.pid);

  /** Ends this listener's connection only (other test files may be listening on the same database). */
  async function endListenConnection(wakeups: JobWakeups) {
    const others = new Set(await listenerPids());
    await wakeups.ready();
    expect(wakeups.listening).toBe(true);
    const mine = (await listenerPids()).filter((pid) => !others.has(pid));
    expect(mine).toHaveLength(1);
    await admin.query("SELECT pg_terminate_backend($1)", [mine[0]]);
    await expect.poll(() => wakeups.listening).toBe(false);
  }

  it("is reported while the server runs", async () => {
    const wakeups = new JobWakeups(url);
    try {
      await endListenConnection(wakeups);
      await expect.poll(warnings).toEqual([expect.stringMatching(/^job wakeups: LISTEN connection unavailable \(.+\); retrying in 500 ms$/)]);
    } finally {
      await wakeups.close();
    }
  });

  it("is not reported once the process is stopping", async () => {
    const wakeups = new JobWakeups(url);
    try {
      markProcessStopping();
      await endListenConnection(wakeups);
      expect(warnings()).toEqual([]);
    } finally {
      await wakeups.close();
    }
  });
});
