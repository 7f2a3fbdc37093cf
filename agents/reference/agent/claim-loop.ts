// Asks for work with a long poll, runs what comes, asks again after a short random pause (so a
// fleet of agents does not call in step). One job at a time: two measurements sharing a
// machine would disturb each other's numbers.
import type { ApiClient } from "../api/client";
import { UnauthorizedError, UnreadableJobError } from "../api/errors";
import type { Job } from "../api/protocol";
import type { Logger } from "../log";
import { sleep } from "../timing";

export interface ClaimDeps {
  client: ApiClient;
  log: Logger;
  claimWaitSeconds: number;
  /** Longest random pause between two claims. */
  claimJitterMs: number;
  runJob: (job: Job) => Promise<void>;
  /** Reports a leased job the agent could not read as failed. */
  rejectJob: (error: UnreadableJobError) => Promise<void>;
  onUnauthorized: (error: UnauthorizedError) => void;
}

/**
 * Runs until `until` aborts (the agent is stopping); a running job is finished first. Stopping
 * abandons a waiting claim at once. A job the server leased in that very moment is lost on its
 * way; its lease runs out and it is offered again (one attempt counted).
 */
export async function runClaimLoop(deps: ClaimDeps, until: AbortSignal): Promise<void> {
  while (!until.aborted) {
    let job: Job | undefined;
    try {
      job = await deps.client.claim(deps.claimWaitSeconds, until);
    } catch (error) {
      if (until.aborted) return;
      if (error instanceof UnauthorizedError) {
        deps.onUnauthorized(error);
        return;
      }
      if (error instanceof UnreadableJobError) {
        deps.log.error("job.unreadable", { job: error.jobId, error: error.problem });
        await deps.rejectJob(error);
        continue;
      }
      // Not an outage (the client retries those without end): a request the server refused.
      deps.log.error("claim.failed", { error: error instanceof Error ? error.message : String(error) });
      await sleep(5_000 + Math.random() * deps.claimJitterMs, until);
      continue;
    }
    if (job) await deps.runJob(job);
    await sleep(Math.random() * deps.claimJitterMs, until);
  }
}
