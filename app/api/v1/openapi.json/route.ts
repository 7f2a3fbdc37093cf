import { buildOpenApiDocument } from "~/server/api/openapi";
import { routeMethods } from "~/server/api/route-methods";

export const dynamic = "force-dynamic";

export const { GET, HEAD, OPTIONS, POST, PUT, DELETE, PATCH } = routeMethods({
  GET: (req) => Response.json(buildOpenApiDocument(new URL(req.url).origin)),
});
