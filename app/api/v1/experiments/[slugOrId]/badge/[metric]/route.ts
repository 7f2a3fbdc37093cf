import { getBadge } from "~/server/api/rest/badge";
import { routeMethods } from "~/server/api/route-methods";

export const dynamic = "force-dynamic";

export const { GET, HEAD, OPTIONS, POST, PUT, DELETE, PATCH } = routeMethods<{ params: Promise<{ slugOrId: string; metric: string }> }>({
  GET: async (req, { params }) => getBadge(req, await params),
});
