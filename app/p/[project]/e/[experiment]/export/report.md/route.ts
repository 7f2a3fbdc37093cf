// GET …/export/report.md[?baseline=<variant>] — the Markdown report alone, without chart images
// (the browser renders those; the zip download from the page adds them).
import { routeMethods } from "~/server/api/route-methods";
import { download, type RouteParams } from "../download";

export const dynamic = "force-dynamic";

async function get(req: Request, { params }: RouteParams) {
  const { project, experiment } = await params;
  return download(req, async (caller, baseline) => {
    const report = await caller.report.markdown({ projectSlug: project, experimentSlug: experiment, baseline, chartFiles: [] });
    return { fileName: report.fileName, contentType: "text/markdown; charset=utf-8", text: report.markdown };
  });
}

export const { GET, HEAD, OPTIONS, POST, PUT, DELETE, PATCH } = routeMethods({ GET: get });
