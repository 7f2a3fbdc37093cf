"use client";
// The experiment's runs, newest first, a page at a time (the first page comes with the page).
import Link from "next/link";
import { Fragment, type ReactNode } from "react";
import { formatDateTime } from "~/components/format";
import { useTRPC } from "~/components/trpc/react";
import { importFormats } from "~/server/schemas/import-formats";
import type { RunsPage } from "~/server/runs/experiment-runs";
import { Pager } from "./pager";
import { RunAgents } from "./run-agents";
import { usePagedList } from "./use-paged-list";

/** A one-line summary of a run's captured environment (CPU, cores, OS, runtime). */
function environmentSummary(environment: unknown): string {
  if (!environment || typeof environment !== "object") return "—";
  const env = environment as Record<string, unknown>;
  const parts = [env.cpuModel, env.cores && `${String(env.cores)} cores`, env.os, env.runtime].filter(Boolean).map(String);
  return parts.length ? parts.join(" · ") : "—";
}

interface RunsTableProps {
  projectSlug: string;
  experimentSlug: string;
  /** The first page, loaded with the page. */
  first: RunsPage;
  uploadHint?: { projectSlug: string; experimentSlug: string; variant: string };
  /** What an experiment agents run shows instead of upload instructions (runnable-empty-state.tsx). */
  empty?: ReactNode;
}

export function RunsTable({ projectSlug, experimentSlug, first, uploadHint, empty }: RunsTableProps) {
  const trpc = useTRPC();
  const { page, pager } = usePagedList(first, (offset) => trpc.experiment.runs.queryOptions({ projectSlug, experimentSlug, offset, limit: first.limit }));
  const runs = page.runs;
  if (runs.length === 0 && page.total === 0) {
    if (empty) return <>{empty}</>;
    // Viewers cannot make API keys or upload, so they get no instructions for it.
    if (!uploadHint) return <p className="empty">No runs yet.</p>;
    return (
      <div className="empty">
        <p>No runs yet. Upload results you already have with an API key of this project:</p>
        <pre
          className="block"
          style={{ textAlign: "left" }}
        >{`npx versus import results.json --format jmh --experiment ${uploadHint.experimentSlug} --variant "${uploadHint.variant}"`}</pre>
        <p className="small">
          Formats: {importFormats.join(", ")} — see <Link href="/api-docs">the API page</Link>; keys are on{" "}
          <Link href={`/p/${uploadHint.projectSlug}/keys`}>API keys</Link>.
        </p>
      </div>
    );
  }
  return (
    <>
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
              <Fragment key={run.id}>
                <tr id={`run-${run.id}`}>
                  <td>{run.variant}</td>
                  <td>
                    <span className={run.status === "succeeded" ? "badge good" : "badge"}>{run.status}</span>
                    {run.warnings.length ? (
                      <div>
                        <span className="badge warn">{run.warnings.length === 1 ? "1 warning" : `${run.warnings.length} warnings`}</span>
                      </div>
                    ) : null}
                  </td>
                  <td>
                    {run.source}
                    {run.sourceDetail ? <div className="muted small">{run.sourceDetail}</div> : null}
                    {run.noise ? <div className="muted small">A/A: measuring noise, not compared</div> : null}
                  </td>
                  <td className="num">{run.repetition}</td>
                  <td className="small">
                    {run.gitCommit ? <code>{run.gitCommit.slice(0, 10)}</code> : "—"}
                    {run.gitBranch ? <div className="muted">{run.gitBranch}</div> : null}
                  </td>
                  <td className="small">{environmentSummary(run.environment)}</td>
                  <td className="small muted">{formatDateTime(run.finishedAt ?? run.createdAt)}</td>
                </tr>
                {run.agents > 1 ? (
                  <tr className="run-agents-row">
                    <td colSpan={7}>
                      <RunAgents projectSlug={projectSlug} experimentSlug={experimentSlug} runId={run.id} agents={run.agents} />
                    </td>
                  </tr>
                ) : null}
                {run.warnings.length ? (
                  // What the run's producer noticed that its figures do not say (a probe's gaps…), right under the run.
                  <tr className="run-warnings" data-testid="run-warnings">
                    <td colSpan={7}>
                      <ul aria-label={`Warnings of ${run.variant} run ${run.repetition}`}>
                        {run.warnings.map((warning, index) => (
                          <li key={index} className="small">
                            {warning}
                          </li>
                        ))}
                      </ul>
                    </td>
                  </tr>
                ) : null}
              </Fragment>
            ))}
          </tbody>
        </table>
      </div>
      <Pager noun="run" label="runs" {...pager} />
    </>
  );
}
