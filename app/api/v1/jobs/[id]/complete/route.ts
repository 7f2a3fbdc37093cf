import { agentRoute } from "~/server/api/rest/agent-handler";
import { postComplete } from "~/server/api/rest/jobs";

export const dynamic = "force-dynamic";

export function POST(req: Request, { params }: { params: Promise<{ id: string }> }) {
  return agentRoute(async (ctx) => postComplete(ctx, (await params).id))(req);
}
