// Renews a running job's lease every leaseSeconds / 3, so one lost renewal still leaves time for
// two more. A 409 or 404 means the job is not ours any more (the lease expired and another agent
// took it, or it was finished or cancelled): the job stops and its result is dropped.
import type { ApiClient } from "../api/client";
import { ConflictError, NotFoundError, UnauthorizedError } from "../api/errors";
import type { Logger } from "../log";
import { jitter, sleep } from "../timing";
import type { RunningJob } from "./running-job";

export async function runLeaseLoop(
  client: ApiClient,
  running: RunningJob,
  until: AbortSignal,
  log: Logger,
  onUnauthorized: (error: UnauthorizedError) => void,
): Promise<void> {
  const { job } = running;
  const everyMs = (job.leaseSeconds * 1000) / 3;
  while (!until.aborted) {
    await sleep(jitter(everyMs), until);
    if (until.aborted) return;
    try {
      const answer = await client.renewLease(job.id, job.leaseToken, until);
      if (answer?.cancelRequested) {
        log.info("job.cancel_requested", { job: job.id, via: "lease" });
        running.stop("cancelled");
      }
    } catch (error) {
      if (until.aborted) return;
      if (error instanceof ConflictError || error instanceof NotFoundError) {
        log.warn("job.lease_lost", { job: job.id, reason: error.message });
        running.stop("lease-lost");
        return;
      }
      if (error instanceof UnauthorizedError) {
        onUnauthorized(error);
        return;
      }
      // Still unreachable after the call's retries: keep the job running and try at the next
      // renewal; if the lease runs out meanwhile, the server says 409 then.
      log.warn("job.lease_renewal_failed", { job: job.id, error: error instanceof Error ? error.message : String(error) });
    }
  }
}
