import { buildOpenApiDocument } from "~/server/api/openapi";
import { routeMethods } from "~/server/api/route-methods";
import { publicOrigin } from "~/server/http/public-origin";

export const dynamic = "force-dynamic";

export const { GET, HEAD, OPTIONS, POST, PUT, DELETE, PATCH } = routeMethods({
  GET: (req) => Response.json(buildOpenApiDocument(publicOrigin(req.headers, req.url))),
});
