import { restRoute } from "~/server/api/rest/handler";
import { postResults } from "~/server/api/rest/results";
import { routeMethods } from "~/server/api/route-methods";

export const dynamic = "force-dynamic";
export const { GET, HEAD, OPTIONS, POST, PUT, DELETE, PATCH } = routeMethods({ POST: restRoute(postResults) });
