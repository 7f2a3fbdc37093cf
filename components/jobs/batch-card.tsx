"use client";
// One batch on the experiment page: how far it got, who started it and how, and each job with
// its status (queued, running on which agent, done with its run, failed with its error and
// log, cancelled). Members cancel the batch or one job and retry failed jobs.
import { useMutation } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { useAction } from "~/components/forms/use-action";
import { formatDateTime, plural } from "~/components/format";
import { duration } from "~/components/time-ago";
import { useTRPC } from "~/components/trpc/react";
import type { BatchRow } from "~/server/agents/batches";
import { personLabel } from "~/server/display/display";
import { finished, jobState, totalJobs, unfinished, type Tone } from "./job-state";
import { JobLog } from "./job-log";

const toneClass: Record<Tone, string> = { good: "badge good", bad: "badge warn", accent: "badge accent", plain: "badge" };

interface Props {
  batch: BatchRow;
  projectSlug: string;
  canWrite: boolean;
  /** The time the list was fetched: a job waiting out its backoff is told apart by it. */
  fetchedAt: Date;
  /** The newest batch shows its jobs from the start; older ones when running or opened. */
  newest: boolean;
  onChanged: () => Promise<unknown>;
}

export function BatchCard({ batch, projectSlug, canWrite, fetchedAt, newest, onChanged }: Props) {
  const trpc = useTRPC();
  const cancelBatch = useMutation(trpc.job.cancelBatch.mutationOptions());
  const cancelJob = useMutation(trpc.job.cancel.mutationOptions());
  const retry = useMutation(trpc.job.retryFailed.mutationOptions());
  const { run: act, error: actionError } = useAction(onChanged);
  const total = totalJobs(batch);
  const open = unfinished(batch);
  const { counts } = batch;
  // Whether the job list is open is the user's after the first render: it does not snap shut
  // when the batch finishes under their eyes.
  const [showJobs, setShowJobs] = useState(newest || open > 0);

  const onCancelBatch = () => {
    if (
      !window.confirm(
        `Cancel this batch's ${plural(open, "unfinished job")}? Queued jobs are dropped; running ones are asked to stop. Runs already stored stay.`,
      )
    )
      return;
    void act(() => cancelBatch.mutateAsync({ projectSlug, batchId: batch.id }));
  };

  const tallies = [
    [counts.succeeded, "done", "good"],
    [counts.leased, "running", "accent"],
    [counts.queued, "queued", "plain"],
    [counts.failed, "failed", "bad"],
    [counts.cancelled, "cancelled", "plain"],
  ] as const;
  const how = [
    batch.noise ? "A/A: measuring noise" : null,
    batch.confirmsAlert ? "confirming an alert" : null,
    batch.order === "random" ? `random order, seed ${batch.seed}` : "interleaved",
    batch.pinnedAgent ? `on ${batch.pinnedAgent.name}` : null,
    Object.keys(batch.requiredLabels).length
      ? `labels ${Object.entries(batch.requiredLabels)
          .map(([key, value]) => `${key}=${value}`)
          .join(", ")}`
      : null,
  ].filter(Boolean);

  return (
    <article
      id={`batch-${batch.id}`}
      className="batch"
      aria-label={`Batch started ${formatDateTime(batch.createdAt)}`}
      data-testid="batch"
      data-active={open > 0}
    >
      <div className="batch-head">
        <div className="stack-tight">
          <p style={{ margin: 0 }}>
            <strong>
              {finished(batch)} of {plural(total, "job")} finished
            </strong>{" "}
            <span className="batch-tallies" data-testid="batch-tallies">
              {tallies
                .filter(([count]) => count > 0)
                .map(([count, label, tone], index) => (
                  <span key={label}>
                    {index ? " " : ""}
                    <span className={toneClass[tone]}>
                      {count} {label}
                    </span>
                  </span>
                ))}
            </span>
          </p>
          <p className="muted small" style={{ margin: 0 }}>
            Started {formatDateTime(batch.createdAt)}
            {batch.createdBy ? ` by ${personLabel(batch.createdBy)}` : ""} · {how.join(" · ")}
            {batch.cancelledAt ? ` · cancelled ${formatDateTime(batch.cancelledAt)}` : ""}
          </p>
        </div>
        {canWrite ? (
          <div className="actions">
            {counts.failed > 0 ? (
              <button
                type="button"
                className="button small"
                onClick={() => void act(() => retry.mutateAsync({ projectSlug, batchId: batch.id }))}
                disabled={retry.isPending}
              >
                Retry {plural(counts.failed, "failed job")}
              </button>
            ) : null}
            {open > 0 ? (
              <button type="button" className="button small danger" onClick={onCancelBatch} disabled={cancelBatch.isPending}>
                Cancel batch
              </button>
            ) : null}
          </div>
        ) : null}
      </div>
      <progress className="batch-progress" max={Math.max(1, total)} value={finished(batch)} aria-label="Jobs finished" />
      {batch.waiting.length && counts.queued > 0 ? (
        <div className="notice-warn" role="status" data-testid="batch-waiting">
          <strong>
            {plural(counts.queued, "job")} wait{counts.queued === 1 ? "s" : ""}: no agent can take {counts.queued === 1 ? "it" : "them"} now.
          </strong>
          <ul className="batch-waiting-reasons">
            {batch.waiting.map((reason) => (
              <li key={reason}>{reason}</li>
            ))}
          </ul>
          <span className="small">
            See <Link href={`/p/${projectSlug}/agents`}>Agents</Link>.
          </span>
        </div>
      ) : null}
      {actionError ? (
        <div className="alert" role="alert">
          {actionError}
        </div>
      ) : null}
      <details className="batch-jobs" open={showJobs} onToggle={(event) => setShowJobs(event.currentTarget.open)}>
        <summary>Jobs</summary>
        <div className="table-wrap">
          <table aria-label="Jobs">
            <thead>
              <tr>
                <th className="num" data-narrow="hide">
                  #
                </th>
                <th>Variant</th>
                <th>Status</th>
                <th data-narrow="hide">Attempt</th>
                {canWrite ? <th /> : null}
              </tr>
            </thead>
            <tbody>
              {batch.jobs.map((job) => {
                const state = jobState(job, fetchedAt);
                const took =
                  job.status === "succeeded" && job.startedAt && job.finishedAt ? duration(job.finishedAt.getTime() - job.startedAt.getTime()) : null;
                return (
                  <tr key={job.id} data-testid="job" data-status={job.status}>
                    <td className="num muted" data-narrow="hide">
                      {job.position + 1}
                    </td>
                    <td>
                      {job.variant.name}{" "}
                      <span className="muted small job-kind">{job.warmup ? `warm-up ${job.repetition + 1}` : `run ${job.repetition + 1}`}</span>
                    </td>
                    <td className="job-status">
                      <span className={toneClass[state.tone]} title={state.label}>
                        {state.label}
                      </span>
                      {job.runId ? (
                        <>
                          {" "}
                          <a href={`#run-${job.runId}`} className="small">
                            run
                          </a>
                        </>
                      ) : null}
                      {took ? <span className="muted small"> in {took}</span> : null}
                      {job.error && job.status !== "succeeded" && job.status !== "cancelled" ? (
                        <JobLog projectSlug={projectSlug} jobId={job.id} error={job.error} />
                      ) : null}
                    </td>
                    <td className="muted small" data-narrow="hide">
                      {job.attempts}/{job.maxAttempts}
                    </td>
                    {canWrite ? (
                      <td className="cell-actions">
                        {job.status === "queued" || (job.status === "leased" && !job.cancelRequested) ? (
                          <button
                            type="button"
                            className="button small"
                            aria-label={`Cancel job ${job.position + 1}`}
                            onClick={() => void act(() => cancelJob.mutateAsync({ projectSlug, jobId: job.id }))}
                          >
                            Cancel
                          </button>
                        ) : null}
                        {job.status === "failed" ? (
                          <button
                            type="button"
                            className="button small"
                            aria-label={`Retry job ${job.position + 1}`}
                            onClick={() => void act(() => retry.mutateAsync({ projectSlug, batchId: batch.id, jobId: job.id }))}
                          >
                            Retry
                          </button>
                        ) : null}
                      </td>
                    ) : null}
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
        {batch.jobsTruncated ? (
          <p className="muted small">
            The first {plural(batch.jobs.length, "job")} are listed; the counts above cover all {total}.
          </p>
        ) : null}
      </details>
    </article>
  );
}
