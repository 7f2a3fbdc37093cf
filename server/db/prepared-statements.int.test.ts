// Marked statements become named prepared statements on the connection that runs them, through
// the real client and adapter (an interactive transaction keeps every call on one connection, so
// the connection's own pg_prepared_statements shows them); unmarked ones do not.
import { afterAll, describe, expect, it } from "vitest";
import { db } from "./client";
import { preparedStatement, statementName } from "./prepared-statements";

afterAll(() => db.$disconnect());

describe("prepared statements", () => {
  it("prepares a marked statement once per connection, by its text's hash, and leaves others unnamed", async () => {
    const prepared = await db.$transaction(async (tx) => {
      for (let i = 0; i < 3; i++) await tx.$queryRaw`${preparedStatement} SELECT ${i}::int AS "marked"`;
      await tx.$queryRaw`SELECT 1 AS "unmarked"`;
      return tx.$queryRaw<{ name: string; statement: string }[]>`SELECT "name", "statement" FROM pg_prepared_statements WHERE "statement" LIKE '%marked%' AND "statement" NOT LIKE '%pg_prepared_statements%'`;
    });
    expect(prepared).toHaveLength(1);
    expect(prepared[0]?.statement).toMatch(/^\/\* prepared \*\/ SELECT \$1::int AS "marked"$/);
    expect(prepared[0]?.name).toBe(statementName({ sql: prepared[0]?.statement ?? "" }));
  });

  it("names statements by their text: the same text the same name, another text another name", () => {
    const one = statementName({ sql: "/* prepared */ SELECT 1" });
    expect(one).toMatch(/^v_[\w-]{27}$/);
    expect(statementName({ sql: "/* prepared */ SELECT 1" })).toBe(one);
    expect(statementName({ sql: "/* prepared */ SELECT 2" })).not.toBe(one);
    expect(statementName({ sql: "SELECT 1 /* prepared */" })).toBe("");
  });
});
