import Link from "next/link";
import type { ReactNode } from "react";
import { formatDateTime, plural } from "~/components/format";
import { importFormats } from "~/server/schemas/import-formats";

interface RunRow {
  id: string;
  status: string;
  source: string;
  sourceDetail: string;
  repetition: number;
  createdAt: Date;
  finishedAt: Date | null;
  gitCommit: string | null;
  gitBranch: string | null;
  environment: unknown;
  variantId: string;
}

/** A one-line summary of a run's captured environment (CPU, cores, OS, runtime). */
function environmentSummary(environment: unknown): string {
  if (!environment || typeof environment !== "object") return "—";
  const env = environment as Record<string, unknown>;
  const parts = [env.cpuModel, env.cores && `${String(env.cores)} cores`, env.os, env.runtime].filter(Boolean).map(String);
  return parts.length ? parts.join(" · ") : "—";
}

export function RunsTable({ runs, total, variantNames, uploadHint, empty }: { runs: RunRow[]; total: number; variantNames: Map<string, string>; uploadHint?: { projectSlug: string; experimentSlug: string; variant: string }; empty?: ReactNode }) {
  if (runs.length === 0) {
    // An experiment agents run says Run instead (components/experiments/runnable-empty-state.tsx).
    if (empty) return <>{empty}</>;
    // Viewers cannot make API keys or upload, so they get no instructions for it.
    if (!uploadHint) return <p className="empty">No runs yet.</p>;
    return (
      <div className="empty">
        <p>No runs yet. Upload results you already have with an API key of this project:</p>
        <pre className="block" style={{ textAlign: "left" }}>{`npx versus import results.json --format jmh --experiment ${uploadHint.experimentSlug} --variant "${uploadHint.variant}"`}</pre>
        <p className="small">
          Formats: {importFormats.join(", ")} — see <Link href="/api-docs">the API page</Link>;
          keys are on <Link href={`/p/${uploadHint.projectSlug}/keys`}>API keys</Link>.
        </p>
      </div>
    );
  }
  return (
    <div className="table-wrap">
      <table aria-label="Runs">
        <thead>
          <tr>
            <th>Variant</th>
            <th>Status</th>
            <th>Source</th>
            <th className="num">#</th>
            <th>Commit</th>
            <th>Environment</th>
            <th>When</th>
          </tr>
        </thead>
        <tbody>
          {runs.map((run) => (
            <tr key={run.id} id={`run-${run.id}`}>
              <td>{variantNames.get(run.variantId) ?? "?"}</td>
              <td>
                <span className={run.status === "succeeded" ? "badge good" : "badge"}>{run.status}</span>
              </td>
              <td>
                {run.source}
                {run.sourceDetail ? <div className="muted small">{run.sourceDetail}</div> : null}
              </td>
              <td className="num">{run.repetition}</td>
              <td className="small">
                {run.gitCommit ? <code>{run.gitCommit.slice(0, 10)}</code> : "—"}
                {run.gitBranch ? <div className="muted">{run.gitBranch}</div> : null}
              </td>
              <td className="small">{environmentSummary(run.environment)}</td>
              <td className="small muted">{formatDateTime(run.finishedAt ?? run.createdAt)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {total > runs.length ? <p className="muted small">Showing the latest {runs.length} of {plural(total, "run")}.</p> : null}
    </div>
  );
}
