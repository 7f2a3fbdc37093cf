"use client";
// A failed job's error in full and the end of its agent's log, loaded when the user opens it.
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "~/components/trpc/react";

export function JobLog({ projectSlug, jobId, error }: { projectSlug: string; jobId: string; error: string }) {
  const trpc = useTRPC();
  const [open, setOpen] = useState(false);
  const job = useQuery({ ...trpc.job.get.queryOptions({ projectSlug, jobId }), enabled: open });
  return (
    <details className="job-log" onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary>
        <span className="error">{error.length > 140 ? `${error.slice(0, 140)}…` : error}</span>
      </summary>
      {error.length > 140 ? <p className="error">{error}</p> : null}
      {job.isPending && open ? <p className="muted small">Loading the log…</p> : null}
      {job.error ? <p className="error">{job.error.message}</p> : null}
      {job.data ? (
        job.data.logTail ? (
          <pre className="block log-tail" aria-label="Log tail">
            {job.data.logTail}
          </pre>
        ) : (
          <p className="muted small">The agent sent no log.</p>
        )
      ) : null}
    </details>
  );
}
