import packageJson from "~/package.json";
import { routeMethods } from "~/server/api/route-methods";
import { checkHealth } from "~/server/api/health";

export const dynamic = "force-dynamic";

export const { GET, HEAD, OPTIONS, POST, PUT, DELETE, PATCH } = routeMethods({
  GET: async () => {
    const health = await checkHealth(packageJson.version);
    return Response.json(health, { status: health.status === "ok" ? 200 : 503, headers: { "Cache-Control": "no-store" } });
  },
});
