// What a Prisma client on the node-postgres adapter (server/db/client.ts) actually throws when
// PostgreSQL goes away — provoked on a PostgreSQL of this test's own, stopped, crashed and
// started again, or refusing new connections (the database closed to them, the server full, a
// smart shutdown under way) — is recognised by isDatabaseUnavailable; the client works again once
// PostgreSQL is back, without being made anew; and a connection dying in the pool while idle
// does not bring the process down.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startOwnDatabase, type OwnDatabase } from "~/test/own-database";
import { closeToConnections, fillConnectionSlots, shutDownSmartly } from "~/test/refused-connections";
import { createPrismaClient, type Db } from "./client";
import { Prisma } from "./generated/client";
import { preparedQuery } from "./prepared-statements";
import { isDatabaseUnavailable } from "./unavailable";

let database: OwnDatabase;
let db: Db;

beforeAll(async () => {
  database = await startOwnDatabase();
  db = createPrismaClient(database.url);
});
afterAll(async () => {
  await db.$disconnect();
  await database.remove();
});

/** The error `run` rejects with (fails the test when it resolves). */
async function errorOf(run: () => Promise<unknown>): Promise<unknown> {
  const outcome = await run().then(
    () => ({ ok: true as const }),
    (error: unknown) => ({ ok: false as const, error }),
  );
  if (outcome.ok) throw new Error("expected the call to fail");
  return outcome.error;
}

/** Each way the server calls the database: model queries, raw SQL, a transaction, a prepared statement on the pool. */
const calls = {
  "a model query": () => db.project.findMany({ take: 1 }),
  "a count": () => db.project.count(),
  $queryRaw: () => db.$queryRaw`SELECT 1`,
  "an interactive transaction": () => db.$transaction(async (tx) => tx.project.count()),
  "a batch transaction": () => db.$transaction([db.project.count(), db.job.count()]),
  "a prepared statement on the pool": () => preparedQuery(db, Prisma.sql`SELECT 1 AS one`),
};
const everyCall = () => Promise.all(Object.values(calls).map((call) => call()));

describe("isDatabaseUnavailable, on what the client throws", () => {
  it("PostgreSQL stopped (fast shutdown): statements in flight, an open transaction and every later call; all work again once it is back", async () => {
    await everyCall(); // connections open and idle in the pool
    const inFlight = errorOf(() => db.$queryRaw`SELECT pg_sleep(30)`);
    const preparedInFlight = errorOf(() => preparedQuery(db, Prisma.sql`SELECT pg_sleep(30)`));
    let entered!: () => void;
    const insideTransaction = new Promise<void>((resolve) => (entered = resolve));
    const transaction = errorOf(() =>
      db.$transaction(
        async (tx) => {
          await tx.project.count();
          entered();
          await tx.$queryRaw`SELECT pg_sleep(30)`;
        },
        { timeout: 60_000 },
      ),
    );
    await insideTransaction;
    await database.stop();

    const failures: Record<string, unknown> = {
      "a statement in flight": await inFlight,
      "a prepared statement in flight": await preparedInFlight,
      "an open transaction": await transaction,
    };
    for (const [name, call] of Object.entries(calls)) failures[name] = await errorOf(call);
    for (const [name, error] of Object.entries(failures)) expect(isDatabaseUnavailable(error), `${name}: ${String(error)}`).toBe(true);

    await database.start();
    await everyCall();
  });

  it("PostgreSQL crashed (SIGKILL of the postmaster) with idle connections in the pool: the process lives on, calls fail as unavailable, then work", async () => {
    // Only the pool has been used (as by a server whose first calls are agents'): an idle
    // connection's error then has only the pool to go to.
    const poolOnly = createPrismaClient(database.url);
    try {
      await Promise.all([1, 2, 3].map(() => preparedQuery(poolOnly, Prisma.sql`SELECT pg_sleep(0.05)`)));
      await database.kill();
      for (const call of [() => preparedQuery(poolOnly, Prisma.sql`SELECT 1 AS one`), () => poolOnly.project.count(), ...Object.values(calls)]) {
        const error = await errorOf(call);
        expect(isDatabaseUnavailable(error), String(error)).toBe(true);
      }
      await database.start();
      await everyCall();
      expect(await preparedQuery(poolOnly, Prisma.sql`SELECT 1 AS one`)).toEqual([{ one: 1 }]);
    } finally {
      await poolOnly.$disconnect();
    }
  });

  it("PostgreSQL stopped, reached through its Unix-domain socket (a DATABASE_URL with ?host=<folder>): the socket is gone, and every call fails as unavailable", async () => {
    // The embedded server makes its socket in PostgreSQL's default folder, as a packaged one does
    // in /var/run/postgresql: connecting once it stopped fails with ENOENT, not ECONNREFUSED.
    const { username, password, port, pathname } = new URL(database.url);
    const socketUrl = `postgresql://${username}:${password}@localhost:${port}${pathname}?host=/tmp`;
    const before = createPrismaClient(socketUrl);
    expect(await preparedQuery(before, Prisma.sql`SELECT 1 AS one`)).toEqual([{ one: 1 }]);
    await before.$disconnect();
    const overSocket = createPrismaClient(socketUrl);
    await database.stop();
    try {
      for (const call of [
        () => overSocket.project.findMany({ take: 1 }),
        () => overSocket.$queryRaw`SELECT 1`,
        () => overSocket.$transaction(async (tx) => tx.project.count()),
        () => preparedQuery(overSocket, Prisma.sql`SELECT 1 AS one`),
      ]) {
        const error = await errorOf(call);
        expect(String(error)).toContain("connect ENOENT");
        expect(isDatabaseUnavailable(error), String(error)).toBe(true);
      }
    } finally {
      await database.start();
    }
    expect(await preparedQuery(overSocket, Prisma.sql`SELECT 1 AS one`)).toEqual([{ one: 1 }]);
    await overSocket.$disconnect();
  });

  // The calls that need a new connection: every one, since the refusal ended the pool's own.
  // node-postgres learns that an idle connection was ended only when its socket's close is read:
  // a call made before that meets the ended session (57P01, unavailable too) and the pool drops
  // it. At most one such call per pooled connection (10, pg's default) comes before the refusal.
  const described = (error: unknown) => JSON.stringify(error, (_key, value: unknown) => (typeof value === "bigint" ? String(value) : value));
  const refusedEverywhere = async (state: string, code: string) => {
    for (const [name, call] of Object.entries(calls)) {
      let error = await errorOf(call);
      for (let ended = 0; ended < 10 && described(error).includes('"57P01"') && code !== "57P01"; ended++) {
        expect(isDatabaseUnavailable(error), `${state}, ${name} on an ended session: ${String(error)}`).toBe(true);
        error = await errorOf(call);
      }
      expect(described(error), `${state}, ${name}`).toContain(code);
      expect(isDatabaseUnavailable(error), `${state}, ${name}: ${String(error)}`).toBe(true);
    }
  };

  /** Every call fails as unavailable (with `code`) between `enter` and the leaving it returns, and works before and after. */
  const whileRefused = async (state: string, code: string, enter: () => Promise<() => Promise<void>>) => {
    await everyCall();
    const leave = await enter();
    try {
      await refusedEverywhere(state, code);
    } finally {
      await leave();
    }
    await everyCall();
  };

  it("the database closed to new connections (ALTER DATABASE … ALLOW_CONNECTIONS false: 55000), then open again", async () => {
    await whileRefused("not accepting connections", "55000", () => closeToConnections(database));
  });

  it("the server full (max_connections taken: 53300), then with room again", async () => {
    await whileRefused("too many clients", "53300", () => fillConnectionSlots(database));
  });

  it("a smart shutdown under way (57P03 'the database system is shutting down'), then started again", async () => {
    await whileRefused("shutting down", "57P03", () => shutDownSmartly(database));
  });

  it("is false for the errors that are not about reaching the database", async () => {
    const errors = [
      await errorOf(() => db.$queryRaw`SELECT * FROM no_such_table`),
      await errorOf(() => db.$queryRaw`SELECT 1/0`),
      await errorOf(() => db.project.create({ data: { name: "x", slug: "" } }).then(() => db.project.create({ data: { name: "x", slug: "" } }))),
      await errorOf(() => preparedQuery(db, Prisma.sql`SELECT 'x'::int`)),
      // 55000 too, but the statement's own fault (a sequence's currval before any nextval).
      await db.$executeRaw`CREATE SEQUENCE IF NOT EXISTS never_advanced`.then(() => errorOf(() => db.$queryRaw`SELECT currval('never_advanced')`)),
      await errorOf(() => preparedQuery(db, Prisma.sql`SELECT currval('never_advanced') AS value`)),
      new Error("something else"),
      "a string",
      undefined,
    ];
    for (const error of errors) expect(isDatabaseUnavailable(error), String(error)).toBe(false);
  });
});
