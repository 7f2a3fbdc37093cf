// GET …/export/runs.csv — every run's stored summary, one row per run and metric.
import { download, type RouteParams } from "../download";

export const dynamic = "force-dynamic";

export async function GET(req: Request, { params }: RouteParams) {
  const { project, experiment } = await params;
  return download(req, (caller) => caller.report.runsCsv({ projectSlug: project, experimentSlug: experiment }));
}
