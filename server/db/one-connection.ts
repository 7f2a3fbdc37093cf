// A page's reads on one pooled connection. The experiment page asks for its sections at once
// (the comparison, the runs, a metric's results, the batches), and each read took a connection of
// its own from the pool: four of the pool's ten for one view, while uploads hold up to six for
// their transactions (server/runs/ingest-turns.ts) and the comparison readers want theirs. Inside
// onOneConnection every statement that goes to the pool — Prisma's (its driver adapter calls
// pool.query) and the prepared ones (prepared-statements.ts) — goes to the one connection it
// holds instead, one after another in the order they were sent: each is given to the connection
// when the one before it has been answered (node-postgres deprecates a query sent while another
// runs, and pg 9 refuses it). Transactions still take a connection of their own (pool.connect):
// a read has none.
import { AsyncLocalStorage } from "node:async_hooks";
import type pg from "pg";
import { poolOf } from "./prepared-statements";
import { isDatabaseUnavailable } from "./unavailable";

/** The connection held for a read, of `pool`; null once it went back to the pool. */
interface Held {
  pool: pg.Pool;
  client: pg.PoolClient | null;
  /** Settles when the last statement sent on `client` has been answered: the next one's turn. */
  turn: Promise<unknown>;
}

const ignore = () => undefined;

// On globalThis under a registry symbol: the pool's query (made where the pool is made) and the
// pages (Next.js's bundle) may see two copies of this module, and both must share one store.
const STORE = Symbol.for("versus.oneConnection");
const global = globalThis as unknown as { [STORE]?: AsyncLocalStorage<Held> };
const held = (global[STORE] ??= new AsyncLocalStorage<Held>());

/**
 * Sends the pool's queries made inside onOneConnection to the connection it holds. Called once,
 * on the pool a Prisma client is made with (client.ts).
 */
export function letReadsShareAConnection(pool: pg.Pool): void {
  const query = pool.query;
  const onPool = (args: unknown[]) => query.apply(pool, args as Parameters<typeof query>) as unknown;
  pool.query = function (...args: unknown[]) {
    const lane = held.getStore();
    // Another pool's statements (another client's, another database's) are not the read's.
    if (!lane?.client || lane.pool !== pool) return onPool(args);
    // Prisma and preparedQuery wait for a promise; a callback, when given, is called from it.
    const callback = typeof args.at(-1) === "function" ? (args.pop() as (error: unknown, result?: unknown) => void) : undefined;
    const answered = lane.turn.then(() => (lane.client ? lane.client.query(...(args as [pg.QueryConfig])) : onPool(args)));
    lane.turn = answered.then(ignore, ignore);
    if (!callback) return answered;
    answered.then(
      (result) => callback(null, result),
      (error: unknown) => callback(error),
    );
    return undefined;
  } as typeof pool.query;
}

/**
 * Runs `read` with one connection of `db`'s pool held for it: every statement it sends to the
 * pool, however many at once, runs on that connection. The connection goes back when `read` is
 * done; a statement sent after that (by work `read` left running) goes to the pool as usual. A
 * connection that failed under `read` is closed, not given back. When no connection can be had,
 * `read` runs as if outside, and its statements meet the failure themselves (answered as any
 * unavailable database is).
 */
export async function onOneConnection<T>(db: object, read: () => Promise<T>): Promise<T> {
  const pool = poolOf(db);
  const outer = held.getStore();
  if (outer?.client && outer.pool === pool) return read();
  let client: pg.PoolClient;
  try {
    client = await pool.connect();
  } catch {
    return read();
  }
  const mine: Held = { pool, client, turn: Promise.resolve() };
  let broken = false;
  const onError = () => (broken = true);
  client.on("error", onError);
  try {
    return await held.run(mine, read);
  } catch (error) {
    if (isDatabaseUnavailable(error)) broken = true;
    throw error;
  } finally {
    // A statement still waiting or running (the read failed before others it sent were answered)
    // finishes on this connection before another request may have it.
    for (let last; last !== mine.turn;) await (last = mine.turn);
    mine.client = null;
    // A broken connection keeps the listener: its error can still come after it is closed, and
    // nobody else listens then (the pool listens to the connections it keeps).
    if (!broken) client.off("error", onError);
    client.release(broken);
  }
}
