import packageJson from "~/package.json";
import { checkHealth } from "~/server/services/health";

export const dynamic = "force-dynamic";

export async function GET() {
  const health = await checkHealth(packageJson.version);
  return Response.json(health, { status: health.status === "ok" ? 200 : 503, headers: { "Cache-Control": "no-store" } });
}
