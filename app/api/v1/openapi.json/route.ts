import { buildOpenApiDocument } from "~/server/api/openapi";
import { publicOrigin } from "~/server/public-origin";

export const dynamic = "force-dynamic";

export function GET(req: Request) {
  return Response.json(buildOpenApiDocument(publicOrigin(req.headers, req.url)));
}
