import { agentRoute } from "~/server/api/rest/agent-handler";
import { postHeartbeat } from "~/server/api/rest/agents";
import { routeMethods } from "~/server/api/route-methods";

export const dynamic = "force-dynamic";
export const { GET, HEAD, OPTIONS, POST, PUT, DELETE, PATCH } = routeMethods({ POST: agentRoute(postHeartbeat) });
