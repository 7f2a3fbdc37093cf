// One Prisma client per process, on the node-postgres driver adapter (no engine binary).
// Cached on globalThis so Next.js dev reloads do not open a new pool each time. The pool is made
// here, not by the adapter, so the agent protocol's hot statements can use it directly
// (prepared-statements.ts).
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { requiredEnv } from "../core/env";
import { PrismaClient } from "./generated/client";
import { letReadsShareAConnection } from "./one-connection";
import { attachPool } from "./prepared-statements";

const globalForPrisma = globalThis as unknown as { versusPrisma?: PrismaClient };

export function createPrismaClient(databaseUrl: string = requiredEnv("DATABASE_URL"), options: { maxConnections?: number } = {}): PrismaClient {
  const pool = new pg.Pool({ connectionString: databaseUrl, ...(options.maxConnections ? { max: options.maxConnections } : {}) });
  // An idle connection that dies (PostgreSQL restarted or crashed) is an 'error' on the pool,
  // which ends the process when nobody listens. The adapter listens only once Prisma has run a
  // query, and the agents' statements use the pool directly; the pool drops the connection and
  // opens a new one when next asked.
  pool.on("error", (error) => console.warn(`database: an idle connection ended (${error.message})`));
  // A page's reads share one connection (one-connection.ts).
  letReadsShareAConnection(pool);
  const client = new PrismaClient({ adapter: new PrismaPg(pool, { disposeExternalPool: true }) });
  // The adapter ends the pool on $disconnect only if Prisma itself ever connected.
  const disconnect = client.$disconnect.bind(client);
  client.$disconnect = async () => {
    await disconnect();
    if (!pool.ending) await pool.end();
  };
  return attachPool(client, pool);
}

export const db: PrismaClient = (globalForPrisma.versusPrisma ??= createPrismaClient());

export type Db = PrismaClient;
export type { Prisma } from "./generated/client";
