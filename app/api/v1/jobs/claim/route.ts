import { agentCredentialRoute } from "~/server/api/rest/agent-handler";
import { postClaim } from "~/server/api/rest/jobs";
import { routeMethods } from "~/server/api/route-methods";

export const dynamic = "force-dynamic";
// A claim waits up to 30 s for work (long-poll).
export const maxDuration = 60;
export const { GET, HEAD, OPTIONS, POST, PUT, DELETE, PATCH } = routeMethods({ POST: agentCredentialRoute(postClaim) });
