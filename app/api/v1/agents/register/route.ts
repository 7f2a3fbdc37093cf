import { enrollmentRoute } from "~/server/api/rest/agent-handler";
import { postRegister } from "~/server/api/rest/agents";

export const dynamic = "force-dynamic";
export const POST = enrollmentRoute(postRegister);
