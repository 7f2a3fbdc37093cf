// Delivers reports from the on-disk buffer: retried (by the client's policy for complete and
// fail: until accepted) through server outages, removed from disk once the server has answered.
// The answers that end a report: accepted; 409/404 (the job is not ours any more: drop it);
// a refused run (400/413/422) becomes a failure report carrying the server's message, so the
// job does not sit leased until its lease runs out. 401 stops the agent and keeps the report.
import type { ApiClient } from "../api/client";
import { ConflictError, NotFoundError, RejectedError, UnauthorizedError } from "../api/errors";
import type { Logger } from "../log";
import type { Report, ResultBuffer } from "./result-buffer";

export type Delivery = "delivered" | "dropped" | "kept";

export class Uploader {
  constructor(
    private readonly client: ApiClient,
    private readonly buffer: ResultBuffer,
    private readonly log: Logger,
    private readonly onUnauthorized: (error: UnauthorizedError) => void,
  ) {}

  /** Saves the report, then sends it; "kept" means it is still on disk (shutdown, 401). */
  async submit(report: Report, signal: AbortSignal): Promise<Delivery> {
    await this.buffer.save(report);
    return this.deliver(report, signal);
  }

  /** Sends reports left on disk by an earlier run of the agent. */
  async drain(reports: readonly Report[], signal: AbortSignal): Promise<void> {
    if (reports.length) this.log.info("buffer.resend", { reports: reports.length, dir: this.buffer.dir });
    for (const report of reports) {
      if (signal.aborted) return;
      if ((await this.deliver(report, signal)) === "kept") return;
    }
  }

  private async deliver(report: Report, signal: AbortSignal): Promise<Delivery> {
    const job = report.jobId;
    try {
      if (report.kind === "complete") {
        const answer = await this.client.complete(job, report.leaseToken, report.run, signal);
        this.log.info("job.completed", { job, run: answer?.run?.id ?? "none (warm-up)", replayed: answer?.replayed ?? false });
      } else {
        const answer = await this.client.fail(job, { leaseToken: report.leaseToken, ...report.fail }, signal);
        this.log.info(report.fail.cancelled ? "job.cancel_acknowledged" : "job.failure_reported", { job, status: answer?.status, error: report.fail.error });
      }
    } catch (error) {
      if (error instanceof ConflictError || error instanceof NotFoundError) {
        this.log.warn("job.result_dropped", { job, reason: error.message });
        await this.buffer.remove(job);
        return "dropped";
      }
      if (error instanceof RejectedError && report.kind === "complete") {
        this.log.warn("job.run_refused", { job, reason: error.message });
        const refusal = error.body?.message ?? error.message;
        return this.submit(
          {
            jobId: job,
            leaseToken: report.leaseToken,
            savedAt: new Date().toISOString(),
            kind: "fail",
            fail: { error: `the server refused the run: ${refusal}`.slice(0, 2000), retryable: false, cancelled: false },
          },
          signal,
        );
      }
      if (error instanceof RejectedError) {
        // A failure report the server cannot read: nothing the agent could change would help.
        this.log.error("job.failure_refused", { job, reason: error.message });
        await this.buffer.remove(job);
        return "dropped";
      }
      if (error instanceof UnauthorizedError) {
        this.onUnauthorized(error);
        return "kept";
      }
      if (signal.aborted) {
        this.log.warn("job.result_kept", { job, dir: this.buffer.dir, reason: "the agent is stopping; it is sent at the next start" });
        return "kept";
      }
      throw error;
    }
    await this.buffer.remove(job);
    return "delivered";
  }
}
