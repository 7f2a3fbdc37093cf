// The project's open change points as a table: where each is, the commits it came between and its
// size, with links to the experiment and to the metric's history. The history and Alerts pages.
import Link from "next/link";
import { formatDateTime } from "~/components/format";
import type { OpenChangePoint } from "~/server/history/open-change-points";
import { ChangeVerdict } from "./change-verdict";
import { shortSha } from "./date-axis";

export function OpenChangePointsTable({ projectSlug, changePoints }: { projectSlug: string; changePoints: OpenChangePoint[] }) {
  const base = `/p/${projectSlug}`;
  return (
    <div className="table-wrap">
      <table aria-label="Open change points">
        <thead>
          <tr>
            <th>Experiment · metric · variant</th>
            <th>Commits</th>
            <th>Change</th>
            <th data-narrow="hide">Found</th>
          </tr>
        </thead>
        <tbody>
          {changePoints.map((c) => (
            <tr key={c.id}>
              {/* One cell, so the size of the change still fits a phone's screen beside it. */}
              <td className="change-point-where">
                <Link href={`${base}/e/${c.experimentSlug}`}>{c.experimentSlug}</Link>
                <div className="small">
                  <Link href={`${base}/e/${c.experimentSlug}/history?${new URLSearchParams({ metric: c.metricKey, variant: c.variant }).toString()}`}>
                    {c.metricKey}
                  </Link>{" "}
                  · {c.variant}
                </div>
              </td>
              <td className="mono small">
                {shortSha(c.previousCommit)} → {shortSha(c.commit)}
              </td>
              <td>
                <ChangeVerdict percent={c.changePercent} verdict={c.verdict} />
              </td>
              <td className="small" data-narrow="hide">
                {formatDateTime(new Date(c.foundAt))}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
