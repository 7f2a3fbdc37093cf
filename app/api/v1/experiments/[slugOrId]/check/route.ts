import { getExperimentCheck } from "~/server/api/rest/check";
import { restRoute } from "~/server/api/rest/handler";
import { routeMethods } from "~/server/api/route-methods";

export const dynamic = "force-dynamic";

export const { GET, HEAD, OPTIONS, POST, PUT, DELETE, PATCH } = routeMethods<{ params: Promise<{ slugOrId: string }> }>({
  GET: (req, { params }) => restRoute(async (ctx) => getExperimentCheck(ctx, (await params).slugOrId))(req),
});
