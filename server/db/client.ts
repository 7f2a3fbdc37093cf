// One Prisma client per process, on the node-postgres driver adapter (no engine binary).
// Cached on globalThis so Next.js dev reloads do not open a new pool each time.
import { PrismaPg } from "@prisma/adapter-pg";
import { requiredEnv } from "../env";
import { PrismaClient } from "./generated/client";
import { statementName } from "./prepared-statements";

const globalForPrisma = globalThis as unknown as { versusPrisma?: PrismaClient };

export function createPrismaClient(databaseUrl: string = requiredEnv("DATABASE_URL")): PrismaClient {
  return new PrismaClient({ adapter: new PrismaPg({ connectionString: databaseUrl }, { statementNameGenerator: statementName }) });
}

export const db: PrismaClient = (globalForPrisma.versusPrisma ??= createPrismaClient());

export type Db = PrismaClient;
export type { Prisma } from "./generated/client";
