// GET …/export/summary.csv[?baseline=<variant>] — the comparison, one row per metric and variant.
import { routeMethods } from "~/server/api/route-methods";
import { download, type RouteParams } from "../download";

export const dynamic = "force-dynamic";

async function get(req: Request, { params }: RouteParams) {
  const { project, experiment } = await params;
  return download(req, (caller, baseline) => caller.report.summaryCsv({ projectSlug: project, experimentSlug: experiment, baseline }));
}

export const { GET, HEAD, OPTIONS, POST, PUT, DELETE, PATCH } = routeMethods({ GET: get });
