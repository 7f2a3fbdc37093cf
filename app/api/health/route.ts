import { db } from "~/server/db/client";
import { checkHealth } from "~/server/services/health";
import packageJson from "~/package.json";

export const dynamic = "force-dynamic";

export async function GET() {
  const health = await checkHealth(db, packageJson.version);
  return Response.json(health, { status: health.status === "ok" ? 200 : 503, headers: { "Cache-Control": "no-store" } });
}
