// How a job and a batch read on the experiment page: the words and badge of each status, and
// whether a batch still has work in flight (the panel polls only then).
import type { BatchJobRow, BatchRow } from "~/server/agents/batches";

export type Tone = "good" | "bad" | "accent" | "plain";

export interface JobState {
  label: string;
  tone: Tone;
}

export function jobState(job: Pick<BatchJobRow, "status" | "attempts" | "runAfter" | "cancelRequested" | "agent">, now: Date): JobState {
  switch (job.status) {
    case "queued":
      // A job that failed and waits out its backoff before the next attempt.
      return job.attempts > 0 && job.runAfter.getTime() > now.getTime() ? { label: "waiting to retry", tone: "plain" } : { label: "queued", tone: "plain" };
    case "leased": {
      const where = job.agent ? ` on ${job.agent.name}` : "";
      return job.cancelRequested ? { label: `stopping${where}`, tone: "bad" } : { label: `running${where}`, tone: "accent" };
    }
    case "succeeded":
      // A warm-up's result is checked, then discarded: its row says "warm-up" and links no run.
      return { label: "done", tone: "good" };
    case "failed":
      return { label: "failed", tone: "bad" };
    case "cancelled":
      return { label: "cancelled", tone: "plain" };
  }
}

/** Jobs not finished yet: queued or running. */
export function unfinished(batch: Pick<BatchRow, "counts">): number {
  return batch.counts.queued + batch.counts.leased;
}

export function totalJobs(batch: Pick<BatchRow, "counts">): number {
  return Object.values(batch.counts).reduce((sum, count) => sum + count, 0);
}

/** Finished jobs, whatever the outcome. */
export function finished(batch: Pick<BatchRow, "counts">): number {
  return totalJobs(batch) - unfinished(batch);
}

export function anyActive(batches: Pick<BatchRow, "counts">[] | undefined): boolean {
  return (batches ?? []).some((batch) => unfinished(batch) > 0);
}

/** Jobs done across the batches: when it grows, new runs have landed. */
export function succeededJobs(batches: Pick<BatchRow, "counts">[] | undefined): number {
  return (batches ?? []).reduce((sum, batch) => sum + batch.counts.succeeded, 0);
}
