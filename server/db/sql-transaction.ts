// A transaction straight on the node-postgres pool under the Prisma client (the pool of
// prepared-statements.ts), for the upload path: every statement of an upload is raw SQL already,
// and Prisma's interactive transaction and query pipeline (its transaction manager, argument and
// result mapping, tracing) cost the server more CPU per upload than the statements themselves
// (bench/load.ts). Statements run as named prepared statements, their rows read as $queryRaw
// reads them. One statement at a time on the transaction's connection.
import type { Prisma } from "./generated/client";
import { poolOf, preparedConfig, preparedQuery } from "./prepared-statements";

export interface SqlClient {
  /** The rows of `statement`, run in the transaction. */
  query<Row>(statement: Prisma.Sql): Promise<Row[]>;
}

/**
 * Runs `work` in a transaction on a connection of `db`'s pool: committed when it returns, rolled
 * back when it throws (the error is rethrown). A connection whose COMMIT or ROLLBACK failed is
 * closed rather than handed back to the pool.
 */
export async function inSqlTransaction<T>(db: object, work: (tx: SqlClient) => Promise<T>): Promise<T> {
  const client = await poolOf(db).connect();
  let reusable = false;
  try {
    await client.query("BEGIN");
    let result: T;
    try {
      result = await work({ query: async <Row>(statement: Prisma.Sql) => (await client.query(preparedConfig(statement))).rows as Row[] });
    } catch (error) {
      await client.query("ROLLBACK");
      reusable = true;
      throw error;
    }
    await client.query("COMMIT");
    reusable = true;
    return result;
  } finally {
    client.release(!reusable);
  }
}

/** Statements on `db`'s pool outside any transaction, each a prepared statement (a SqlClient for code that takes one). */
export function poolClient(db: object): SqlClient {
  return { query: <Row>(statement: Prisma.Sql) => preparedQuery<Row>(db, statement) };
}
