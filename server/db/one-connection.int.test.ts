// A page's reads share one pooled connection (one-connection.ts): Prisma's statements and the
// prepared ones, sent at once, all run on the connection onOneConnection holds, one at a time (no
// "already executing a query" from node-postgres, which pg 9 refuses), and it goes back to the pool
// afterwards (or is closed when it broke).
import { afterAll, describe, expect, inject, it } from "vitest";
import { createPrismaClient } from "./client";
import { Prisma } from "./generated/client";
import { onOneConnection } from "./one-connection";
import { poolOf, preparedQuery } from "./prepared-statements";

const db = createPrismaClient(inject("databaseUrl"), { maxConnections: 6 });
const pool = poolOf(db);
afterAll(() => db.$disconnect());

/** Backend pids of six statements sent at once, three through Prisma and three prepared ones. */
async function pidsOfSixAtOnce(): Promise<Set<number>> {
  // pg_sleep: each statement lasts long enough that the next finds its connection still busy.
  const rows = await Promise.all([
    ...[1, 2, 3].map(() => db.$queryRaw<{ pid: number }[]>`SELECT pg_backend_pid() AS pid, pg_sleep(0.02)::text`),
    ...[1, 2, 3].map(() => preparedQuery<{ pid: number }>(db, Prisma.sql`SELECT pg_backend_pid() AS pid, pg_sleep(0.02)::text`)),
  ]);
  return new Set(rows.map(([row]) => Number(row?.pid)));
}

/** Runs `work` and returns the most connections the pool had handed out at once meanwhile. */
async function mostAtOnce(work: () => Promise<unknown>): Promise<number> {
  let out = 0;
  let most = 0;
  const acquired = () => (most = Math.max(most, ++out));
  const released = () => out--;
  pool.on("acquire", acquired).on("release", released);
  try {
    await work();
  } finally {
    pool.off("acquire", acquired).off("release", released);
  }
  return most;
}

describe("onOneConnection", () => {
  it("runs every statement sent to the pool at once on the one connection it holds, one at a time, and outside it they spread", async () => {
    const outside = await pidsOfSixAtOnce();
    expect(outside.size).toBeGreaterThan(1);

    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.message);
    process.on("warning", onWarning);
    try {
      let inside = new Set<number>();
      const most = await mostAtOnce(() => onOneConnection(db, async () => (inside = await pidsOfSixAtOnce())));
      expect(inside.size).toBe(1);
      expect(most).toBe(1);
      // process.emitWarning delivers on the next tick.
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.filter((message) => message.includes("already executing a query"))).toEqual([]);
    } finally {
      process.off("warning", onWarning);
    }
  });

  it("answers each statement with its own rows and error, in the order they were sent", async () => {
    const answers = await onOneConnection(db, () =>
      Promise.allSettled([
        preparedQuery<{ n: number }>(db, Prisma.sql`SELECT ${1}::int AS n`),
        preparedQuery(db, Prisma.sql`SELECT 1 / ${0}::int`),
        db.$queryRaw<{ n: number }[]>`SELECT ${3}::int AS n`,
        pool.query<{ n: number }>("SELECT 4::int AS n"),
      ]),
    );
    expect(
      answers.map((answer) => (answer.status === "fulfilled" ? ("rows" in answer.value ? answer.value.rows : answer.value) : String(answer.reason))),
    ).toEqual([[{ n: 1 }], expect.stringMatching(/division by zero/), [{ n: 3 }], [{ n: 4 }]]);
  });

  it("gives the connection back when the read is done, and sends what the read left running to the pool", async () => {
    const idleBefore = pool.idleCount;
    let later: Promise<unknown> | undefined;
    const held = await onOneConnection(db, async () => {
      const [row] = await preparedQuery<{ pid: number }>(db, Prisma.sql`SELECT pg_backend_pid() AS pid`);
      // Started here, sent after the read has ended: the held connection is not the read's any more.
      later = new Promise((resolve) => setTimeout(resolve, 30)).then(() => mostAtOnce(() => pidsOfSixAtOnce()));
      return Number(row?.pid);
    });
    expect(pool.idleCount).toBeGreaterThanOrEqual(Math.min(idleBefore, 1));
    expect(await later).toBeGreaterThan(1);
    expect(held).toBeGreaterThan(0);
  });

  it("passes a failed statement on and keeps the connection, which is still sound", async () => {
    const opened = pool.totalCount;
    await expect(onOneConnection(db, () => preparedQuery(db, Prisma.sql`SELECT 1 / ${0}::int`))).rejects.toThrow(/division by zero/);
    expect(pool.totalCount).toBe(opened);
    const [row] = await onOneConnection(db, () => preparedQuery<{ one: number }>(db, Prisma.sql`SELECT 1::int AS one`));
    expect(row).toEqual({ one: 1 });
  });

  it("closes a connection that broke under the read instead of giving it back", async () => {
    const other = createPrismaClient(inject("databaseUrl"), { maxConnections: 1 });
    try {
      let pid = 0;
      await pidsOfSixAtOnce(); // a few connections open, so one closed shows in the count
      const opened = pool.totalCount;
      const read = onOneConnection(db, async () => {
        [{ pid }] = (await preparedQuery<{ pid: number }>(db, Prisma.sql`SELECT pg_backend_pid() AS pid`)) as [{ pid: number }];
        // Terminated from another session while it sleeps: PostgreSQL ends the connection.
        return preparedQuery(db, Prisma.sql`SELECT pg_sleep(5)`);
      }).then(
        () => "answered",
        (error: unknown) => error, // taken at once: it fails before the test looks
      );
      await new Promise((resolve) => setTimeout(resolve, 300));
      await other.$queryRaw`SELECT pg_terminate_backend(${pid}::int)`;
      expect(String(await read)).toMatch(/terminating connection/);
      expect(pool.totalCount).toBe(opened - 1);
    } finally {
      await other.$disconnect();
    }
  });

  it("leaves another client's statements on that client's own pool", async () => {
    const other = createPrismaClient(inject("databaseUrl"), { maxConnections: 1 });
    try {
      const [mine, theirs] = await onOneConnection(db, () =>
        Promise.all([
          preparedQuery<{ pid: number }>(db, Prisma.sql`SELECT pg_backend_pid() AS pid`),
          preparedQuery<{ pid: number }>(other, Prisma.sql`SELECT pg_backend_pid() AS pid`),
        ]),
      );
      const [alone] = await preparedQuery<{ pid: number }>(other, Prisma.sql`SELECT pg_backend_pid() AS pid`);
      expect(theirs?.[0]?.pid).toBe(alone?.pid);
      expect(theirs?.[0]?.pid).not.toBe(mine?.[0]?.pid);
    } finally {
      await other.$disconnect();
    }
  });

  it("nested, runs on the connection already held", async () => {
    const pids = await onOneConnection(db, async () => {
      const [outer] = await preparedQuery<{ pid: number }>(db, Prisma.sql`SELECT pg_backend_pid() AS pid`);
      const inner = await onOneConnection(db, () => pidsOfSixAtOnce());
      return new Set([Number(outer?.pid), ...inner]);
    });
    expect(pids.size).toBe(1);
  });
});
