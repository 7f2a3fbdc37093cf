// The statements that run on every agent call (authenticating the agent, claiming, completing)
// are run as named prepared statements, straight on the node-postgres pool under the Prisma
// client's driver adapter:
// - prepared, because they are long and PostgreSQL spent more time planning them than running
//   them: a named statement is parsed and planned once per connection;
// - on the pool, because Prisma's query pipeline (argument mapping, result mapping, tracing)
//   cost the server as much CPU per call as the driver itself (bench/jobs.ts).
// Same connections, same transactions as the client's other queries: the pool is the adapter's.
// Results read as Prisma's $queryRaw reads them: timestamps (stored in UTC) as Dates, bigint as
// BigInt, JSON parsed.
import crypto from "node:crypto";
import pg from "pg";
import type { Prisma } from "./generated/client";

// On the client itself, under a registry symbol: a process can hold two copies of this module
// (Next.js's bundle and the directly served agent routes) sharing one cached client. Exported for
// tests that put a pool in front of a client's (test/pool-in-front.ts).
export const POOL = Symbol.for("versus.pgPool");

/** Remembers the pool a Prisma client's adapter uses, for preparedQuery. */
export function attachPool<C extends object>(client: C, pool: pg.Pool): C {
  Object.defineProperty(client, POOL, { value: pool });
  return client;
}

// A statement's name is its text's hash, so two texts never share a name on a connection. The
// texts are the few hot statements' (values are parameters), so this map stays small.
const names = new Map<string, string>();
export function statementName(text: string): string {
  let name = names.get(text);
  if (!name) {
    name = `v_${crypto.createHash("sha1").update(text).digest("base64url")}`;
    if (names.size >= 256) names.clear();
    names.set(text, name);
  }
  return name;
}

/**
 * A timestamp without time zone as Prisma stores it, in UTC: "2026-11-24 22:30:00.123" as a
 * column's text, "2026-11-24T22:30:00.123" inside PostgreSQL's JSON.
 */
export const utcTimestamp = (text: string) => new Date(`${text.replace(" ", "T")}Z`);
const types = {
  getTypeParser: ((oid: number, format?: string) => {
    if (format !== "binary" && oid === pg.types.builtins.TIMESTAMP) return utcTimestamp;
    if (format !== "binary" && oid === pg.types.builtins.INT8) return BigInt;
    return pg.types.getTypeParser(oid, format as "text");
  }) as typeof pg.types.getTypeParser,
};

// A Date parameter as Prisma sends one: UTC, no offset (a timestamp column would drop the offset
// and keep the local time).
const parameter = (value: unknown) => (value instanceof Date ? value.toISOString().replace("T", " ").replace("Z", "") : value);

/** The node-postgres pool under a Prisma client made by createPrismaClient (server/db/client.ts). */
export function poolOf(db: object): pg.Pool {
  const pool = (db as { [POOL]?: pg.Pool })[POOL];
  if (!pool) throw new Error("preparedQuery needs a Prisma client made by createPrismaClient (server/db/client.ts)");
  if (pool.ended) throw new Error("preparedQuery on a Prisma client after its $disconnect");
  return pool;
}

/** `statement` as node-postgres runs it: a named prepared statement, read as $queryRaw reads its rows. */
export function preparedConfig(statement: Prisma.Sql): pg.QueryConfig {
  return { name: statementName(statement.text), text: statement.text, values: statement.values.map(parameter), types };
}

/** Runs `statement` as a named prepared statement on `db`'s pool; its rows. */
export async function preparedQuery<Row>(db: object, statement: Prisma.Sql): Promise<Row[]> {
  const result = await poolOf(db).query(preparedConfig(statement));
  return result.rows as Row[];
}
