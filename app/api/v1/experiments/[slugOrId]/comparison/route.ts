import { restRoute } from "~/server/api/rest/handler";
import { getExperimentComparison } from "~/server/api/rest/comparison";

export const dynamic = "force-dynamic";

export function GET(req: Request, { params }: { params: Promise<{ slugOrId: string }> }) {
  return restRoute(async (ctx) => getExperimentComparison(ctx, (await params).slugOrId))(req);
}
