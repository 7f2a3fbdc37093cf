package dev.versus.agent;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.versus.agent.api.ApiClient;
import dev.versus.agent.api.ApiException;
import dev.versus.agent.api.Job;
import dev.versus.agent.api.Registration;
import dev.versus.agent.api.RetryPolicy;
import dev.versus.agent.plugins.WorkloadFactory;
import dev.versus.agent.probe.Probes;
import dev.versus.agent.run.JobRunner;
import dev.versus.workloads.kafka.LocalBrokerProcess;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;

/**
 * Wires the pieces together and owns the agent's life: enroll (or load the saved credential),
 * run the heartbeat, claim and upload loops, and stop in order.
 *
 * <p>Stopping (SIGTERM, or the server's {@code stop}) has two steps. First no new claims, and the
 * running job gets shutdownGraceSeconds to finish and deliver its result. When the grace runs out
 * the job is stopped and released (given back without counting an attempt), and results the
 * server has not acknowledged stay on disk for the next start. A 401 stops everything at once.
 */
public final class Agent {
  public static final String VERSION = "0.1.0";
  public static final int EXIT_OK = 0;
  /** EX_CONFIG: restarting will not help until someone changes something. */
  public static final int EXIT_CONFIG = 78;

  private final Config config;
  private final WorkloadFactory workloads;
  private final Logger log;
  private final ApiClient client;
  private final ResultBuffer buffer;
  private final Uploader uploader;
  private final JobExecutor executor;
  private final JobRunner runner;
  private final Signal stopping = new Signal();
  private final java.util.concurrent.atomic.AtomicBoolean stopAsked = new java.util.concurrent.atomic.AtomicBoolean();
  private final Signal halt = new Signal();
  private final Map<String, RunningJob> running = new ConcurrentHashMap<>();
  private volatile int exitCode = EXIT_OK;
  private int heartbeatIntervalSeconds = 10;
  private int claimWaitSeconds = 30;

  public Agent(Config config, WorkloadFactory workloads, JobRunner runner, Logger log, Map<ApiClient.CallName, RetryPolicy> retryPolicies) {
    this.config = config;
    this.workloads = workloads;
    this.log = log;
    this.client = new ApiClient(config.url(), "versus-agent-jvm/" + VERSION, log, retryPolicies);
    this.buffer = new ResultBuffer(config.bufferDir());
    this.uploader = new Uploader(client, buffer, log, this::unauthorized);
    ObjectNode identity = ApiClient.JSON.createObjectNode().put("name", config.name()).put("version", VERSION).put("kind", "jvm");
    this.executor = new JobExecutor(workloads, runner, identity, config.git(), GitSource::runGit);
    this.runner = runner;
  }

  /** Asks the agent to stop (see the class comment); safe to call more than once. */
  public void stop(String reason) {
    // Said before the signal fires: once it has, the claim loop may end and log agent.stopped.
    if (stopping.fired() || !stopAsked.compareAndSet(false, true)) return;
    log.atInfo().setMessage("agent.stopping").addKeyValue("reason", reason).addKeyValue("running", running.size()).addKeyValue("grace_s", config.shutdownGraceSeconds()).log();
    if (!stopping.fire(reason)) return;
    Thread grace = new Thread(() -> {
      if (!halt.sleep(Math.round(config.shutdownGraceSeconds() * 1000))) halt.fire("the shutdown grace ran out");
    }, "shutdown-grace");
    grace.setDaemon(true);
    grace.start();
  }

  /** Runs until stopped; returns the process exit code. */
  public int run() throws IOException, InterruptedException {
    try {
      authenticate();
    } catch (Config.ConfigException | ApiException.Unauthorized | ApiException.Rejected | ApiException.Conflict | ApiException.NotFound refused) {
      if (stopping.fired()) return exitCode;
      log.atError().setMessage("agent.cannot_start").addKeyValue("reason", refused.getMessage()).log();
      return EXIT_CONFIG;
    } catch (ApiException outage) {
      // Only when stopping: register retries outages until then.
      return exitCode;
    } catch (IOException unreadable) {
      log.atError().setMessage("agent.cannot_start").addKeyValue("reason", unreadable.getMessage()).log();
      return EXIT_CONFIG;
    }
    ResultBuffer.Listing leftovers = buffer.list();
    for (String name : leftovers.corrupt()) log.atError().setMessage("buffer.corrupt_report").addKeyValue("file", name).addKeyValue("action", "renamed to .corrupt").log();

    Thread heartbeat = thread("heartbeat", () -> HeartbeatLoop.run(client, log, this::announcement, running, heartbeatIntervalSeconds, this::stopRequested, this::unauthorized, halt));
    // Buffered results of an earlier run go first, before any new claim.
    try {
      uploader.drain(leftovers.reports(), halt);
    } catch (IOException broken) {
      log.atError().setMessage("buffer.resend_failed").addKeyValue("error", broken.getMessage()).log();
    }
    log.atInfo().setMessage("agent.ready").addKeyValue("name", config.name()).addKeyValue("workloads", String.join(",", workloads.names())).addKeyValue("url", config.url()).log();
    ClaimLoop.run(client, log, claimWaitSeconds, config.claimJitterMs(), this::runJob, this::rejectUnreadable, this::unauthorized,
        config.machineLock() == null ? null : new MachineLock(config.machineLock()), stopping);
    halt.fire("stopped");
    heartbeat.join();
    log.atInfo().setMessage("agent.stopped").addKeyValue("exit_code", exitCode).log();
    return exitCode;
  }

  private static Thread thread(String name, Runnable body) {
    Thread thread = new Thread(body, name);
    thread.setDaemon(true);
    thread.start();
    return thread;
  }

  private void stopRequested() {
    if (stopping.fired()) return;
    log.atWarn().setMessage("agent.stop_requested").addKeyValue("hint", "stopped on the Agents page: press Resume there, then start this agent again (its credential in " + config.credentialFile() + " still works)").log();
    stop("the server asked this agent to stop");
  }

  private void unauthorized(ApiException.Unauthorized error) {
    synchronized (this) {
      if (exitCode == EXIT_CONFIG) return;
      exitCode = EXIT_CONFIG;
    }
    log.atError().setMessage("agent.unauthorized").addKeyValue("reason", error.getMessage()).addKeyValue("hint", "the credential in " + config.credentialFile() + " was refused (revoked on the Agents page?); enroll again with a new token").log();
    for (RunningJob job : running.values()) job.stop(RunningJob.UNAUTHORIZED);
    stopping.fire("unauthorized");
    halt.fire("unauthorized");
  }

  /** The capability of an agent whose kafka workload can start a local broker for a run (docs/agent-protocol.md, "Capabilities"). */
  static final String KAFKA_LOCAL_BROKER = "kafka:local-broker";

  private ObjectNode announcement() {
    ObjectNode body = ApiClient.JSON.createObjectNode().put("version", VERSION);
    ArrayNode capabilities = body.putArray("capabilities");
    workloads.names().forEach(capabilities::add);
    Probes.capabilities().forEach(capabilities::add);
    // Jobs whose kafka settings ask for a broker of the run's own go only to an agent that can start one.
    if (workloads.names().contains("kafka") && LocalBrokerProcess.classPath(System.getenv()).isPresent()) capabilities.add(KAFKA_LOCAL_BROKER);
    ObjectNode labels = body.putObject("labels");
    config.labels().forEach(labels::put);
    body.set("workloads", Adverts.of(workloads, runner, log));
    return body;
  }

  private void authenticate() throws Config.ConfigException, ApiException, IOException {
    CredentialStore.Saved saved = CredentialStore.load(config.credentialFile());
    if (saved != null && saved.url().equals(config.url())) {
      client.setCredential(saved.credential());
      heartbeatIntervalSeconds = saved.heartbeatIntervalSeconds();
      claimWaitSeconds = saved.claimWaitSeconds();
      log.atInfo().setMessage("agent.credential_loaded").addKeyValue("agent", saved.agentId()).addKeyValue("project", saved.project()).addKeyValue("file", config.credentialFile()).log();
      return;
    }
    if (saved != null) log.atWarn().setMessage("agent.credential_for_other_server").addKeyValue("file", config.credentialFile()).addKeyValue("saved_url", saved.url()).log();
    if (config.enrollmentToken() == null) {
      throw new Config.ConfigException("no credential in " + config.credentialFile() + " and no enrollment token: set VERSUS_ENROLLMENT_TOKEN (or --enrollment-token) to a venr_… token from the project's Agents page");
    }
    ObjectNode request = announcement().put("name", config.name()).put("kind", "jvm");
    request.set("environment", Environment.capture());
    Registration answer = client.register(config.enrollmentToken(), request, stopping);
    CredentialStore.save(config.credentialFile(), new CredentialStore.Saved(
        config.url(), answer.agentId(), answer.name(), answer.project(), answer.credential(), answer.heartbeatIntervalSeconds(), answer.claimWaitSeconds()));
    client.setCredential(answer.credential());
    heartbeatIntervalSeconds = answer.heartbeatIntervalSeconds();
    claimWaitSeconds = answer.claimWaitSeconds();
    log.atInfo().setMessage("agent.registered").addKeyValue("agent", answer.agentId()).addKeyValue("project", answer.project()).addKeyValue("name", answer.name()).addKeyValue("file", config.credentialFile()).log();
  }

  private void runJob(Job job) {
    RunningJob current = new RunningJob(job);
    running.put(job.id(), current);
    Runnable stopOnHalt = halt.onFire(() -> current.stop(RunningJob.SHUTDOWN));
    Signal leaseDone = new Signal();
    Runnable leaseOnHalt = halt.onFire(() -> leaseDone.fire("halt"));
    Thread lease = thread("lease-" + job.id(), () -> LeaseLoop.run(client, current, log, this::unauthorized, leaseDone));
    log.atInfo().setMessage("job.started").addKeyValue("job", job.id()).addKeyValue("experiment", job.experimentSlug()).addKeyValue("variant", job.variantName()).addKeyValue("repetition", job.repetition()).addKeyValue("warmup", job.warmup()).addKeyValue("attempt", job.attempt()).addKeyValue("workload", job.workloadName()).log();
    try {
      JobExecutor.Outcome outcome = executor.execute(current, log);
      // The lease is still renewed while the result is delivered: an outage of the server then
      // does not hand the job to another agent as long as it is shorter than the lease.
      report(current, outcome);
    } catch (IOException | RuntimeException failed) {
      log.atError().setMessage("job.report_failed").addKeyValue("job", job.id()).addKeyValue("error", String.valueOf(failed)).log();
    } finally {
      leaseDone.fire("done");
      try {
        lease.join();
      } catch (InterruptedException interrupted) {
        Thread.currentThread().interrupt();
      }
      stopOnHalt.run();
      leaseOnHalt.run();
      running.remove(job.id());
    }
  }

  private void report(RunningJob current, JobExecutor.Outcome outcome) throws IOException {
    Job job = current.job();
    if (outcome instanceof JobExecutor.Complete complete) {
      if (!complete.missingMetrics().isEmpty()) log.atWarn().setMessage("job.metrics_not_reported").addKeyValue("job", job.id()).addKeyValue("metrics", String.join(",", complete.missingMetrics())).log();
      uploader.submit(ResultBuffer.complete(job.id(), job.leaseToken(), complete.run()), halt);
    } else if (outcome instanceof JobExecutor.Fail fail) {
      log.atWarn().setMessage("job.failed").addKeyValue("job", job.id()).addKeyValue("error", fail.error()).addKeyValue("retryable", fail.retryable()).log();
      uploader.submit(ResultBuffer.fail(job.id(), job.leaseToken(), fail.error(), fail.logTail(), fail.retryable(), false), halt);
    } else if (outcome instanceof JobExecutor.Stopped stopped) {
      reportStopped(job, stopped.reason());
    }
  }

  private void reportStopped(Job job, String reason) throws IOException {
    switch (reason) {
      case RunningJob.CANCELLED -> uploader.submit(ResultBuffer.fail(job.id(), job.leaseToken(), "cancelled by a user", null, false, true), halt);
      case RunningJob.SHUTDOWN -> {
        try {
          // Its own signal: the agent is halting, but the release must still go out.
          client.release(job.id(), job.leaseToken(), new Signal());
          log.atInfo().setMessage("job.released").addKeyValue("job", job.id()).log();
        } catch (ApiException failed) {
          log.atWarn().setMessage("job.release_failed").addKeyValue("job", job.id()).addKeyValue("error", failed.getMessage()).addKeyValue("effect", "the job runs elsewhere once its lease expires").log();
        }
      }
      case RunningJob.LEASE_LOST -> log.atWarn().setMessage("job.dropped").addKeyValue("job", job.id()).addKeyValue("reason", "its lease is not ours any more; the result is not sent").log();
      default -> log.atWarn().setMessage("job.stopped").addKeyValue("job", job.id()).addKeyValue("reason", reason).log();
    }
  }

  private void rejectUnreadable(ApiException.UnreadableJob unreadable) {
    String error = unreadable.getMessage();
    try {
      uploader.submit(ResultBuffer.fail(unreadable.jobId(), unreadable.leaseToken(), error, null, false, false), halt);
    } catch (IOException broken) {
      log.atError().setMessage("job.report_failed").addKeyValue("job", unreadable.jobId()).addKeyValue("error", broken.getMessage()).log();
    }
  }
}
