// The experiment page's "Export" group: the Markdown report with its charts (zip), the report's
// text alone, and the CSV files. The plain links work without JavaScript; the downloads are
// produced by the route handlers under …/export/.
import { ReportDownload } from "./report-download";

export interface ExportLinksProps {
  projectSlug: string;
  experimentSlug: string;
  /** The baseline the page compares against, so the exports say what the page says. */
  baseline?: string;
}

export function ExportLinks({ projectSlug, experimentSlug, baseline }: ExportLinksProps) {
  const base = `/p/${projectSlug}/e/${experimentSlug}/export`;
  const query = baseline ? `?baseline=${encodeURIComponent(baseline)}` : "";
  return (
    <div className="actions" role="group" aria-label="Export" style={{ alignItems: "center" }}>
      <span className="muted small">Export:</span>
      <ReportDownload projectSlug={projectSlug} experimentSlug={experimentSlug} baseline={baseline} />
      <a className="button small" href={`${base}/report.md${query}`} download title="The Markdown report alone, without chart images">
        report.md
      </a>
      <a className="button small" href={`${base}/runs.csv`} download title="Every run's summary, one row per run and metric">
        runs.csv
      </a>
      <a className="button small" href={`${base}/summary.csv${query}`} download title="The comparison, one row per metric and variant">
        summary.csv
      </a>
    </div>
  );
}
