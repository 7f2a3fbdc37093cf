import { restRoute } from "~/server/api/rest/handler";
import { postImport } from "~/server/api/rest/imports";
import { routeMethods } from "~/server/api/route-methods";

export const dynamic = "force-dynamic";
export const { GET, HEAD, OPTIONS, POST, PUT, DELETE, PATCH } = routeMethods({ POST: restRoute(postImport) });
