// A Prisma client whose node-postgres pool (the one its raw statements and upload transactions run
// on, server/db/prepared-statements.ts, kept under its POOL symbol) is seen through `front`, so a
// test can fail or hold a statement on its way to the database. Built over an object inheriting
// from the client, because the client's own pool property cannot be proxied; `own` can stand in
// for the client's own members the same way (undefined: the client's).
import type pg from "pg";
import type { Db } from "../server/db/client";
import { POOL, poolOf } from "../server/db/prepared-statements";

export interface PoolFront {
  query(config: unknown, ...rest: unknown[]): unknown;
  connect(): Promise<unknown>;
}

export function withPoolInFront(real: Db, front: (pool: pg.Pool) => PoolFront, own: (client: Db, property: PropertyKey) => unknown = () => undefined): Db {
  const fronted = { ended: false, ...front(poolOf(real)) };
  return new Proxy(Object.create(real) as Db, {
    get: (target, property, receiver) => (property === POOL ? fronted : (own(target, property) ?? Reflect.get(target, property, receiver))),
  });
}

/** Whether a statement given to node-postgres inserts runs (store-runs.ts). */
export const insertsRuns = (config: unknown) => /INSERT INTO "Run"/.test((config as { text?: string } | null)?.text ?? "");
