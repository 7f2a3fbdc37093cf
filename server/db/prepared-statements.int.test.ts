// The agent protocol's hot statements run as named prepared statements on the Prisma client's own
// pool (prepared-statements.ts): prepared once per connection, read exactly as $queryRaw reads the
// same statement, whatever the process's time zone.
import { afterAll, describe, expect, inject, it } from "vitest";
import { createPrismaClient } from "./client";
import { Prisma } from "./generated/client";
import { preparedQuery, statementName } from "./prepared-statements";

// One connection, so the client's own queries see the statements prepared on it.
const db = createPrismaClient(inject("databaseUrl"), { maxConnections: 1 });
afterAll(() => db.$disconnect());

describe("prepared statements", () => {
  it("prepares a statement once per connection, named by its text's hash", async () => {
    for (let i = 0; i < 3; i++) await preparedQuery(db, Prisma.sql`SELECT ${i}::int AS "marked"`);
    const prepared = await db.$queryRaw<
      { name: string; statement: string }[]
    >`SELECT "name", "statement" FROM pg_prepared_statements WHERE "statement" LIKE '%"marked"%' AND "statement" NOT LIKE '%pg_prepared_statements%'`;
    expect(prepared).toEqual([{ name: statementName('SELECT $1::int AS "marked"'), statement: 'SELECT $1::int AS "marked"' }]);
  });

  it("names statements by their text: the same text the same name, another text another name", () => {
    const one = statementName("SELECT 1");
    expect(one).toMatch(/^v_[\w-]{27}$/);
    expect(statementName("SELECT 1")).toBe(one);
    expect(statementName("SELECT 2")).not.toBe(one);
  });

  it("reads rows as $queryRaw does (UTC timestamps, bigint, JSON, arrays, NULL) and sends Dates in UTC, in any time zone", async () => {
    const zone = process.env.TZ;
    process.env.TZ = "America/New_York"; // five hours from UTC: a local-time mix-up cannot hide
    try {
      const at = new Date("2026-03-04T05:06:07.089Z");
      const statement = Prisma.sql`SELECT ${at}::timestamp(3) AS "sent", '2026-11-24 22:30:00.123'::timestamp(3) AS "stored",
        9007199254740993::bigint AS "big", 7::int AS "small", '{"a":[1,"x"]}'::jsonb AS "document", json_build_object('k', 1) AS "built",
        ARRAY['x','y']::text[] AS "labels", true AS "flag", NULL::text AS "nothing", ${"it's"}::text AS "text"`;
      const [mine] = await preparedQuery<Record<string, unknown>>(db, statement);
      expect(mine).toEqual({
        sent: at,
        stored: new Date("2026-11-24T22:30:00.123Z"),
        big: 9007199254740993n,
        small: 7,
        document: { a: [1, "x"] },
        built: { k: 1 },
        labels: ["x", "y"],
        flag: true,
        nothing: null,
        text: "it's",
      });
      expect(await db.$queryRaw(statement)).toEqual([mine]);
    } finally {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    }
  });

  it("says what is wrong when the client is not one of createPrismaClient's, or is disconnected", async () => {
    await expect(preparedQuery({}, Prisma.sql`SELECT 1`)).rejects.toThrow(/needs a Prisma client made by createPrismaClient/);
    const other = createPrismaClient(inject("databaseUrl"));
    await preparedQuery(other, Prisma.sql`SELECT 1`);
    await other.$disconnect();
    await expect(preparedQuery(other, Prisma.sql`SELECT 1`)).rejects.toThrow(/after its \$disconnect/);
  });
});
