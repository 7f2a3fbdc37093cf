import { agentRoute } from "~/server/api/rest/agent-handler";
import { postFail } from "~/server/api/rest/jobs";

export const dynamic = "force-dynamic";

export function POST(req: Request, { params }: { params: Promise<{ id: string }> }) {
  return agentRoute(async (ctx) => postFail(ctx, (await params).id))(req);
}
