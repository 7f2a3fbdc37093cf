import { agentRoute } from "~/server/api/rest/agent-handler";
import { postRelease } from "~/server/api/rest/jobs";

export const dynamic = "force-dynamic";

export function POST(req: Request, { params }: { params: Promise<{ id: string }> }) {
  return agentRoute(async (ctx) => postRelease(ctx, (await params).id))(req);
}
