import { enrollmentRoute } from "~/server/api/rest/agent-handler";
import { postRegister } from "~/server/api/rest/agents";
import { routeMethods } from "~/server/api/route-methods";

export const dynamic = "force-dynamic";
export const { GET, HEAD, OPTIONS, POST, PUT, DELETE, PATCH } = routeMethods({ POST: enrollmentRoute(postRegister) });
