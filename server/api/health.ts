// Liveness plus database reachability, for GET /api/health.
import { db as defaultDb, type Db } from "../db/client";
import { unavailableReason } from "../db/unavailable";

export interface Health {
  status: "ok" | "degraded";
  app: { version: string; uptimeSeconds: number };
  database: { status: "ok" | "unreachable"; latencyMs?: number; error?: string };
}

export async function checkHealth(version: string, db: Db = defaultDb): Promise<Health> {
  const app = { version, uptimeSeconds: Math.round(process.uptime()) };
  const started = performance.now();
  try {
    await db.$queryRaw`SELECT 1`;
    return { status: "ok", app, database: { status: "ok", latencyMs: Math.round((performance.now() - started) * 10) / 10 } };
  } catch (error) {
    return { status: "degraded", app, database: { status: "unreachable", error: unavailableReason(error) } };
  }
}
