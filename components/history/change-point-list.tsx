"use client";
// The change points of the history shown: where (the commit range, linked to the repository when
// one is set), how much (% with its 95% interval), which way for this metric, how sure (p), and
// the review: members acknowledge a real one or dismiss noise; both can be reopened.
import type { THistory } from "~/server/schemas/history";
import { changeStyle, formatChange, formatMeasure, formatP } from "~/server/display/display";
import { ChangeVerdict } from "./change-verdict";
import { commitUrl, formatUtc, shortSha } from "./date-axis";

type ChangePoint = THistory["changePoints"][number];
type Status = ChangePoint["status"];

interface Props {
  changePoints: readonly ChangePoint[];
  unit: string;
  repositoryUrl: string | null;
  canReview: boolean;
  busy: boolean;
  error?: string;
  onReview: (id: string, status: Status) => void;
  onShow: (time: string) => void;
}

function Sha({ sha, repositoryUrl }: { sha: string; repositoryUrl: string | null }) {
  const short = <span className="mono">{shortSha(sha)}</span>;
  const href = commitUrl(repositoryUrl, sha);
  return href ? (
    <a href={href} target="_blank" rel="noreferrer noopener" title={sha}>
      {short}
    </a>
  ) : (
    <span title={sha}>{short}</span>
  );
}

export function ChangePointList({ changePoints, unit, repositoryUrl, canReview, busy, error, onReview, onShow }: Props) {
  return (
    <section className="card" aria-labelledby="change-points-heading">
      <h2 id="change-points-heading">
        Change points <span className="muted small">({changePoints.length})</span>
      </h2>
      {error ? (
        <p className="error" role="alert">
          {error}
        </p>
      ) : null}
      {changePoints.length === 0 ? (
        <p className="empty">No change point: the level of this history has not shifted significantly (E-Divisive means, permutation test at p ≤ 0.01).</p>
      ) : (
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th>Commits</th>
                <th>When</th>
                <th>Change</th>
                <th>Level</th>
                <th>p</th>
                <th>Status</th>
                <th aria-label="Actions" />
              </tr>
            </thead>
            <tbody>
              {changePoints.map((c) => (
                <tr key={c.id} data-testid="change-point-row" data-status={c.status}>
                  <td>
                    <Sha sha={c.previousCommit} repositoryUrl={repositoryUrl} /> → <Sha sha={c.commit} repositoryUrl={repositoryUrl} />
                  </td>
                  <td className="small">{c.time ? formatUtc(c.time) : "—"}</td>
                  <td>
                    <ChangeWithCi point={c} />
                  </td>
                  <td className="small">
                    {formatMeasure(c.before, unit)} → {formatMeasure(c.after, unit)}
                  </td>
                  <td className="small">{formatP(c.pValue)}</td>
                  <td className="small">
                    <span className={`badge${c.status === "open" ? " warn" : ""}`}>{c.status}</span>
                    {c.reviewedBy ? <span className="muted"> by {c.reviewedBy}</span> : null}
                  </td>
                  <td>
                    <div className="actions">
                      {c.time ? (
                        <button type="button" className="button small" onClick={() => onShow(c.time as string)}>
                          Show
                        </button>
                      ) : null}
                      {canReview && c.status !== "acknowledged" ? (
                        <button type="button" className="button small" disabled={busy} onClick={() => onReview(c.id, "acknowledged")}>
                          Acknowledge
                        </button>
                      ) : null}
                      {canReview && c.status !== "dismissed" ? (
                        <button type="button" className="button small" disabled={busy} onClick={() => onReview(c.id, "dismissed")}>
                          Dismiss
                        </button>
                      ) : null}
                      {canReview && c.status !== "open" ? (
                        <button type="button" className="button small" disabled={busy} onClick={() => onReview(c.id, "open")}>
                          Reopen
                        </button>
                      ) : null}
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

/** A change point's size and verdict, then its 95% CI, all three written in one style. */
function ChangeWithCi({
  point,
}: {
  point: { changePercent: number | null; ciLowPercent: number | null; ciHighPercent: number | null; verdict: "regression" | "improvement" };
}) {
  const style = changeStyle(point.changePercent, point.ciLowPercent, point.ciHighPercent);
  return (
    <>
      <ChangeVerdict percent={point.changePercent} verdict={point.verdict} style={style} />
      {point.ciLowPercent !== null && point.ciHighPercent !== null ? (
        <span className="small muted">
          {" "}
          95% CI {formatChange(point.ciLowPercent, style)} to {formatChange(point.ciHighPercent, style)}
        </span>
      ) : null}
    </>
  );
}
