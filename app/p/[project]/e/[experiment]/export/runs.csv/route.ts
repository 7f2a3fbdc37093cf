// GET …/export/runs.csv — every run's stored summary, one row per run and metric.
import { routeMethods } from "~/server/api/route-methods";
import { download, type RouteParams } from "../download";

export const dynamic = "force-dynamic";

async function get(req: Request, { params }: RouteParams) {
  const { project, experiment } = await params;
  return download(req, (caller) => caller.report.runsCsv({ projectSlug: project, experimentSlug: experiment }));
}

export const { GET, HEAD, OPTIONS, POST, PUT, DELETE, PATCH } = routeMethods({ GET: get });
