import { postBatch } from "~/server/api/rest/batches";
import { restRoute } from "~/server/api/rest/handler";
import { routeMethods } from "~/server/api/route-methods";

export const dynamic = "force-dynamic";

export const { GET, HEAD, OPTIONS, POST, PUT, DELETE, PATCH } = routeMethods<{ params: Promise<{ slugOrId: string }> }>({
  POST: (req, { params }) => restRoute(async (ctx) => postBatch(ctx, (await params).slugOrId))(req),
});
