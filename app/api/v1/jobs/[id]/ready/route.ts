import { agentRoute } from "~/server/api/rest/agent-handler";
import { postReady } from "~/server/api/rest/jobs";
import { routeMethods } from "~/server/api/route-methods";

export const dynamic = "force-dynamic";

type Params = { params: Promise<{ id: string }> };

export const { GET, HEAD, OPTIONS, POST, PUT, DELETE, PATCH } = routeMethods<Params>({
  POST: (req, { params }) => agentRoute(async (ctx) => postReady(ctx, (await params).id))(req),
});
