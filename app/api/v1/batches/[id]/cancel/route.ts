import { postCancelBatch } from "~/server/api/rest/batches";
import { restRoute } from "~/server/api/rest/handler";
import { routeMethods } from "~/server/api/route-methods";

export const dynamic = "force-dynamic";

export const { GET, HEAD, OPTIONS, POST, PUT, DELETE, PATCH } = routeMethods<{ params: Promise<{ id: string }> }>({
  POST: (req, { params }) => restRoute(async (ctx) => postCancelBatch(ctx, (await params).id))(req),
});
