import { agentRoute } from "~/server/api/rest/agent-handler";
import { postClaim } from "~/server/api/rest/jobs";

export const dynamic = "force-dynamic";
// A claim waits up to 30 s for work (long-poll).
export const maxDuration = 60;
export const POST = agentRoute(postClaim);
