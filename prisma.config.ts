// Prisma CLI configuration. The runtime connects through @prisma/adapter-pg (server/db/client.ts);
// this file is only read by `prisma generate` (offline) and, for users who have Prisma's schema
// engine, `prisma migrate deploy`.
import { defineConfig } from "prisma/config";

export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  datasource: { url: process.env.DATABASE_URL ?? "postgresql://localhost:5432/versus" },
});
