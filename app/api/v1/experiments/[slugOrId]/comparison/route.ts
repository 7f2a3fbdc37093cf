import { restRoute } from "~/server/api/rest/handler";
import { getExperimentComparison } from "~/server/api/rest/comparison";
import { routeMethods } from "~/server/api/route-methods";

export const dynamic = "force-dynamic";

export const { GET, HEAD, OPTIONS, POST, PUT, DELETE, PATCH } = routeMethods<{ params: Promise<{ slugOrId: string }> }>({
  GET: (req, { params }) => restRoute(async (ctx) => getExperimentComparison(ctx, (await params).slugOrId))(req),
});
