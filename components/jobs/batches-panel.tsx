"use client";
// The experiment's batches with live progress: polled every second while any job is queued or
// running, not at all once every batch has finished. When more jobs are done than before, the
// server-rendered comparison, charts and runs are refreshed, so they fill in as runs land.
import { useQuery } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useEffect, useRef } from "react";
import { useTRPC } from "~/components/trpc/react";
import type { BatchRow } from "~/server/agents/batches";
import { BatchCard } from "./batch-card";
import { anyActive, succeededJobs } from "./job-state";

const POLL_MS = 1000;
/** The comparison is recomputed at most this often while runs land; once more when the batch ends. */
const REFRESH_EVERY_MS = 3000;

interface Props {
  projectSlug: string;
  experimentSlug: string;
  canWrite: boolean;
  /** The batches as the page was rendered with them, so the panel shows without a wait. */
  initial: BatchRow[];
  /** When the page fetched `initial`. */
  renderedAt: Date;
}

export function BatchesPanel({ projectSlug, experimentSlug, canWrite, initial, renderedAt }: Props) {
  const trpc = useTRPC();
  const queryOptions = trpc.job.batches.queryOptions({ projectSlug, experimentSlug });
  const batches = useQuery({
    ...queryOptions,
    initialData: initial,
    // Server data, not the cache's: fetch at once when the page mounts with running jobs.
    initialDataUpdatedAt: 0,
    refetchInterval: (query) => (anyActive(query.state.data) ? POLL_MS : false),
  });
  useRefreshWhenRunsLand(batches.data, batches.dataUpdatedAt);

  const list = batches.data ?? [];
  if (list.length === 0) return null;
  const active = anyActive(list);
  const fetchedAt = batches.dataUpdatedAt ? new Date(batches.dataUpdatedAt) : renderedAt;
  return (
    <section className="card" aria-labelledby="batches-heading" data-testid="batches">
      <div className="batches-head">
        <h2 id="batches-heading">Runs by agents</h2>
        {active ? (
          <span className="badge accent" role="status">
            live
          </span>
        ) : null}
      </div>
      {batches.error ? (
        <p className="error" role="alert">
          Progress could not be loaded: {batches.error.message}
        </p>
      ) : null}
      <div className="stack-tight">
        {list.map((batch, index) => (
          <BatchCard
            newest={index === 0}
            key={batch.id}
            batch={batch}
            projectSlug={projectSlug}
            canWrite={canWrite}
            fetchedAt={fetchedAt}
            onChanged={() => batches.refetch()}
          />
        ))}
      </div>
    </section>
  );
}

/** router.refresh() when more jobs are done than at the last refresh: at most every few seconds while batches run, and once when they stop. */
function useRefreshWhenRunsLand(batches: BatchRow[] | undefined, fetchedAt: number) {
  const router = useRouter();
  const refreshed = useRef<{ done: number; at: number } | null>(null);
  const done = succeededJobs(batches);
  const active = anyActive(batches);
  // Looked at after every fetch, so a refresh held back while runs land comes with a later one.
  useEffect(() => {
    const now = Date.now();
    // The page was rendered with what was done then.
    if (refreshed.current === null) {
      refreshed.current = { done, at: now };
      return;
    }
    if (done > refreshed.current.done && (!active || now - refreshed.current.at >= REFRESH_EVERY_MS)) {
      refreshed.current = { done, at: now };
      router.refresh();
    }
  }, [done, active, fetchedAt, router]);
}
