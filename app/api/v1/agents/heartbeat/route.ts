import { agentRoute } from "~/server/api/rest/agent-handler";
import { postHeartbeat } from "~/server/api/rest/agents";

export const dynamic = "force-dynamic";
export const POST = agentRoute(postHeartbeat);
