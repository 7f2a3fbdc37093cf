import { restRoute } from "~/server/api/rest/handler";
import { getExperimentHistory } from "~/server/api/rest/history";
import { routeMethods } from "~/server/api/route-methods";

export const dynamic = "force-dynamic";

export const { GET, HEAD, OPTIONS, POST, PUT, DELETE, PATCH } = routeMethods<{ params: Promise<{ slugOrId: string }> }>({
  GET: (req, { params }) => restRoute(async (ctx) => getExperimentHistory(ctx, (await params).slugOrId))(req),
});
