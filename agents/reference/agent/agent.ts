// Wires the pieces together and owns the agent's life: enroll (or load the saved credential),
// run the heartbeat, claim and upload loops, and stop in order.
//
// Stopping (SIGTERM, SIGINT, or the server's `stop`) has two steps. First no new claims, and the
// running job gets `shutdownGraceSeconds` to finish and deliver its result. When the grace runs
// out the job is stopped and released (given back without counting an attempt) and results the
// server has not acknowledged stay on disk for the next start. A 401 stops everything at once.
import { ApiClient, type CallName } from "../api/client";
import { ConflictError, RejectedError, UnauthorizedError, type ApiError, type UnreadableJobError } from "../api/errors";
import type { Job, Labels, RegisterRequest } from "../api/protocol";
import type { RetryPolicy } from "../api/retry";
import { ConfigError } from "../config-error";
import { captureEnvironment } from "../environment";
import type { Logger } from "../log";
import { AGENT_VERSION } from "../version";
import type { WorkloadRegistry } from "../workloads/registry";
import { runClaimLoop } from "./claim-loop";
import { loadCredential, saveCredential } from "./credential";
import type { GitSource } from "../git-commit";
import { executeJob, type JobOutcome, type StopReason } from "./execute-job";
import { runHeartbeatLoop } from "./heartbeat-loop";
import { runLeaseLoop } from "./lease-loop";
import { ResultBuffer } from "./result-buffer";
import { RunningJob } from "./running-job";
import { Uploader } from "./uploader";

/** Exit codes: 78 (EX_CONFIG) says restarting will not help until someone changes something. */
export const EXIT_OK = 0;
export const EXIT_CONFIG = 78;

export interface AgentConfig {
  url: string;
  enrollmentToken?: string;
  name: string;
  labels: Labels;
  credentialFile: string;
  bufferDir: string;
  shutdownGraceSeconds: number;
  /** Longest random pause between two claims. */
  claimJitterMs: number;
  /** Where the commit each run measured comes from (git-commit.ts); none when absent. */
  git?: GitSource;
}

export class Agent {
  readonly client: ApiClient;
  private readonly buffer: ResultBuffer;
  private readonly uploader: Uploader;
  private readonly stopping = new AbortController();
  private readonly halt = new AbortController();
  private readonly running = new Map<string, RunningJob>();
  private graceTimer: NodeJS.Timeout | undefined;
  private exitCode = EXIT_OK;
  private heartbeatIntervalSeconds = 10;
  private claimWaitSeconds = 30;

  constructor(
    private readonly config: AgentConfig,
    private readonly registry: WorkloadRegistry,
    private readonly log: Logger,
    retryPolicies?: Partial<Record<CallName, RetryPolicy>>,
  ) {
    this.client = new ApiClient({ baseUrl: config.url, userAgent: `versus-reference-agent/${AGENT_VERSION}`, log, retryPolicies });
    this.buffer = new ResultBuffer(config.bufferDir);
    this.uploader = new Uploader(this.client, this.buffer, log, this.unauthorized);
  }

  /** Asks the agent to stop (see the top of this file); safe to call more than once. */
  stop(reason: string) {
    if (this.stopping.signal.aborted) return;
    this.log.info("agent.stopping", { reason, running: this.running.size, grace_s: this.config.shutdownGraceSeconds });
    this.stopping.abort();
    this.graceTimer = setTimeout(() => this.halt.abort(), this.config.shutdownGraceSeconds * 1000);
  }

  /** Runs until stopped; resolves with the process exit code. */
  async run(): Promise<number> {
    try {
      await this.authenticate();
    } catch (error) {
      if (this.stopping.signal.aborted) return this.exitCode;
      if (error instanceof ConfigError || error instanceof UnauthorizedError || error instanceof RejectedError || error instanceof ConflictError) {
        this.log.error("agent.cannot_start", { reason: error.message });
        return EXIT_CONFIG;
      }
      throw error;
    }
    const { reports: leftovers, corrupt } = await this.buffer.list();
    for (const name of corrupt) this.log.error("buffer.corrupt_report", { file: name, action: "renamed to .corrupt" });

    const heartbeat = runHeartbeatLoop(
      {
        client: this.client,
        log: this.log,
        announce: () => this.announcement(),
        running: this.running,
        intervalSeconds: this.heartbeatIntervalSeconds,
        onStopRequested: () => {
          if (this.stopping.signal.aborted) return;
          this.log.warn("agent.stop_requested", {
            hint: `stopped on the Agents page: press Resume there, then start this agent again (its credential in ${this.config.credentialFile} still works)`,
          });
          this.stop("the server asked this agent to stop");
        },
        onUnauthorized: this.unauthorized,
      },
      this.halt.signal,
    );
    const drain = this.uploader.drain(leftovers, this.halt.signal).catch((error) => this.log.error("buffer.resend_failed", { error: String(error) }));
    this.log.info("agent.ready", { name: this.config.name, workloads: this.registry.names().join(","), url: this.config.url });
    await runClaimLoop(
      {
        client: this.client,
        log: this.log,
        claimWaitSeconds: this.claimWaitSeconds,
        claimJitterMs: this.config.claimJitterMs,
        runJob: (job) => this.runJob(job),
        rejectJob: (error) => this.rejectUnreadableJob(error),
        onUnauthorized: this.unauthorized,
      },
      this.stopping.signal,
    );
    await drain;
    this.halt.abort();
    clearTimeout(this.graceTimer);
    await heartbeat;
    this.log.info("agent.stopped", { exit_code: this.exitCode });
    return this.exitCode;
  }

  private readonly unauthorized = (error: ApiError) => {
    if (this.exitCode === EXIT_CONFIG) return;
    this.exitCode = EXIT_CONFIG;
    this.log.error("agent.unauthorized", {
      reason: error.message,
      hint: `the credential in ${this.config.credentialFile} was refused (revoked on the Agents page?); enroll again with a new token`,
    });
    for (const running of this.running.values()) running.stop("unauthorized");
    this.stopping.abort();
    this.halt.abort();
  };

  private announcement() {
    return {
      version: AGENT_VERSION,
      capabilities: this.registry.names(),
      labels: this.config.labels,
      workloads: this.registry.adverts(),
    };
  }

  private async authenticate() {
    const saved = await loadCredential(this.config.credentialFile);
    if (saved && saved.url === this.config.url) {
      this.client.setCredential(saved.credential);
      this.heartbeatIntervalSeconds = saved.heartbeatIntervalSeconds;
      this.claimWaitSeconds = saved.claimWaitSeconds;
      this.log.info("agent.credential_loaded", { agent: saved.agentId, project: saved.project, file: this.config.credentialFile });
      return;
    }
    if (saved) this.log.warn("agent.credential_for_other_server", { file: this.config.credentialFile, saved_url: saved.url });
    if (!this.config.enrollmentToken) {
      throw new ConfigError(
        `no credential in ${this.config.credentialFile} and no enrollment token: set VERSUS_ENROLLMENT_TOKEN (or --enrollment-token) to a venr_… token from the project's Agents page`,
      );
    }
    const request: RegisterRequest = { name: this.config.name, kind: "other", ...this.announcement(), environment: captureEnvironment() };
    const answer = await this.client.register(this.config.enrollmentToken, request, this.stopping.signal);
    if (!answer) throw new Error("register: the server answered without a credential");
    await saveCredential(this.config.credentialFile, {
      url: this.config.url,
      agentId: answer.agent.id,
      name: answer.agent.name,
      project: answer.agent.project,
      credential: answer.credential,
      heartbeatIntervalSeconds: answer.heartbeatIntervalSeconds,
      claimWaitSeconds: answer.claimWaitSeconds,
    });
    this.client.setCredential(answer.credential);
    this.heartbeatIntervalSeconds = answer.heartbeatIntervalSeconds;
    this.claimWaitSeconds = answer.claimWaitSeconds;
    this.log.info("agent.registered", { agent: answer.agent.id, project: answer.agent.project, name: answer.agent.name, file: this.config.credentialFile });
  }

  private async runJob(job: Job) {
    const running = new RunningJob(job);
    this.running.set(job.id, running);
    const stopOnHalt = () => running.stop("shutdown");
    if (this.halt.signal.aborted) stopOnHalt();
    this.halt.signal.addEventListener("abort", stopOnHalt);
    const leaseDone = new AbortController();
    const lease = runLeaseLoop(this.client, running, AbortSignal.any([leaseDone.signal, this.halt.signal]), this.log, this.unauthorized);
    this.log.info("job.started", {
      job: job.id,
      experiment: job.experiment.slug,
      variant: job.variant.name,
      repetition: job.repetition,
      warmup: job.warmup,
      attempt: job.attempt,
      workload: job.workload.name,
    });
    try {
      const outcome = await executeJob(job, this.registry, running.signal, { name: this.config.name, version: AGENT_VERSION }, this.config.git);
      // The lease is still renewed while the result is delivered: an outage of the server then
      // does not hand the job to another agent as long as it is shorter than the lease.
      await this.report(running, outcome);
    } catch (error) {
      this.log.error("job.report_failed", { job: job.id, error: error instanceof Error ? error.message : String(error) });
    } finally {
      leaseDone.abort();
      await lease;
      this.halt.signal.removeEventListener("abort", stopOnHalt);
      this.running.delete(job.id);
    }
  }

  private async report(running: RunningJob, outcome: JobOutcome) {
    const { job } = running;
    const base = { jobId: job.id, leaseToken: job.leaseToken, savedAt: new Date().toISOString() };
    switch (outcome.kind) {
      case "complete":
        if (outcome.missingMetrics.length) this.log.warn("job.metrics_not_reported", { job: job.id, metrics: outcome.missingMetrics.join(",") });
        await this.uploader.submit({ ...base, kind: "complete", run: outcome.run }, this.halt.signal);
        return;
      case "fail":
        this.log.warn("job.failed", { job: job.id, error: outcome.error, retryable: outcome.retryable });
        await this.uploader.submit(
          { ...base, kind: "fail", fail: { error: outcome.error, logTail: outcome.logTail, retryable: outcome.retryable, cancelled: false } },
          this.halt.signal,
        );
        return;
      case "stopped":
        return this.reportStopped(running, outcome.reason);
    }
  }

  private async rejectUnreadableJob(error: UnreadableJobError) {
    const fail = { error: error.message.slice(0, 2000), retryable: false, cancelled: false };
    await this.uploader.submit({ jobId: error.jobId, leaseToken: error.leaseToken, savedAt: new Date().toISOString(), kind: "fail", fail }, this.halt.signal);
  }

  private async reportStopped(running: RunningJob, reason: StopReason) {
    const { job } = running;
    if (reason === "cancelled") {
      const fail = { error: "cancelled by a user", retryable: false, cancelled: true };
      await this.uploader.submit({ jobId: job.id, leaseToken: job.leaseToken, savedAt: new Date().toISOString(), kind: "fail", fail }, this.halt.signal);
    } else if (reason === "shutdown") {
      try {
        await this.client.release(job.id, job.leaseToken);
        this.log.info("job.released", { job: job.id });
      } catch (error) {
        this.log.warn("job.release_failed", {
          job: job.id,
          error: error instanceof Error ? error.message : String(error),
          effect: "the job runs elsewhere once its lease expires",
        });
      }
    } else if (reason === "lease-lost") {
      this.log.warn("job.dropped", { job: job.id, reason: "its lease is not ours any more; the result is not sent" });
    }
  }
}
