// A page's reads on one pooled connection. The experiment page asks for its sections at once
// (the comparison, the runs, a metric's results, the batches), and each read took a connection of
// its own from the pool: four of the pool's ten for one view, while uploads hold up to six for
// their transactions (server/runs/ingest-turns.ts) and the comparison readers want theirs. Inside
// onOneConnection every statement that goes to the pool — Prisma's (its driver adapter calls
// pool.query) and the prepared ones (prepared-statements.ts) — goes to the one connection it
// holds instead, where node-postgres runs them one after another as they come, without a round
// trip through the event loop between them. Transactions still take a connection of their own
// (pool.connect): a read has none.
import { AsyncLocalStorage } from "node:async_hooks";
import type pg from "pg";
import { poolOf } from "./prepared-statements";
import { isDatabaseUnavailable } from "./unavailable";

/** The connection held for a read; null once it went back to the pool. */
interface Held {
  client: pg.PoolClient | null;
}

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
  pool.query = function (this: pg.Pool, ...args: unknown[]) {
    const client = held.getStore()?.client;
    return (client ? client.query : query).apply(client ?? this, args as Parameters<typeof query>);
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
  if (held.getStore()?.client) return read();
  let client: pg.PoolClient;
  try {
    client = await poolOf(db).connect();
  } catch {
    return read();
  }
  const mine: Held = { client };
  let broken = false;
  const onError = () => (broken = true);
  client.on("error", onError);
  try {
    return await held.run(mine, read);
  } catch (error) {
    if (isDatabaseUnavailable(error)) broken = true;
    throw error;
  } finally {
    mine.client = null;
    client.off("error", onError);
    client.release(broken);
  }
}
