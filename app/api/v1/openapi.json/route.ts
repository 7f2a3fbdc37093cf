import { buildOpenApiDocument } from "~/server/api/openapi";

export const dynamic = "force-dynamic";

export function GET(req: Request) {
  return Response.json(buildOpenApiDocument(new URL(req.url).origin));
}
