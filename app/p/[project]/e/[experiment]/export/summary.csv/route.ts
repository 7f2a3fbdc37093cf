// GET …/export/summary.csv[?baseline=<variant>] — the comparison, one row per metric and variant.
import { download, type RouteParams } from "../download";

export const dynamic = "force-dynamic";

export async function GET(req: Request, { params }: RouteParams) {
  const { project, experiment } = await params;
  return download(req, (caller, baseline) => caller.report.summaryCsv({ projectSlug: project, experimentSlug: experiment, baseline }));
}
