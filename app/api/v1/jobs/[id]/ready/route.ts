import { agentRoute } from "~/server/api/rest/agent-handler";
import { postReady } from "~/server/api/rest/jobs";
import { routeMethods } from "~/server/api/route-methods";

export const dynamic = "force-dynamic";

type Params = { params: Promise<{ id: string }> };

export const { GET, HEAD, OPTIONS, POST, PUT, DELETE, PATCH } = routeMethods<Params>({
  POST: (req, { params }) => {
    // The server's t1 of the agent's clock offset: as the call arrives, before its authentication
    // (a database round trip) would make the way in look longer than the way out.
    const receivedAt = new Date();
    return agentRoute(async (ctx) => postReady(ctx, (await params).id, receivedAt))(req);
  },
});
