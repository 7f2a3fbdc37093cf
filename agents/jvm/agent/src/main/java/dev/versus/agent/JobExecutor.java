package dev.versus.agent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.versus.agent.api.Job;
import dev.versus.agent.plugins.WorkloadFactory;
import dev.versus.agent.probe.Probes;
import dev.versus.agent.probe.Sampler;
import dev.versus.agent.run.JobRunner;
import dev.versus.agent.run.RunContext;
import dev.versus.agent.run.RunMetrics;
import dev.versus.harness.RunResult;
import dev.versus.harness.RunFailedException;
import dev.versus.workload.SettingsException;
import dev.versus.workload.Workload;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;

/**
 * Runs one claimed job's workload and decides what to report: a run, a failure, or nothing
 * because the job was stopped from outside (cancelled, lease lost, shutdown). Knows nothing of
 * HTTP; the agent reports the outcome.
 */
public final class JobExecutor {
  /** How long a stopped run may take to wind down (kill its forked JVM) before the agent moves on. */
  private static final long STOP_WAIT_MS = 10_000;

  /** What came of a job. */
  public sealed interface Outcome permits Complete, Fail, Stopped {}

  public record Complete(ObjectNode run, List<String> missingMetrics) implements Outcome {}

  public record Fail(String error, boolean retryable, String logTail) implements Outcome {}

  public record Stopped(String reason) implements Outcome {}

  private final WorkloadFactory workloads;
  private final JobRunner runner;
  private final ObjectNode agentIdentity;
  private final GitSource git;
  private final GitSource.GitRunner runGit;

  public JobExecutor(WorkloadFactory workloads, JobRunner runner, ObjectNode agentIdentity, GitSource git, GitSource.GitRunner runGit) {
    this.workloads = workloads;
    this.runner = runner;
    this.agentIdentity = agentIdentity;
    this.git = git;
    this.runGit = runGit;
  }

  public Outcome execute(RunningJob running, Logger log) {
    Job job = running.job();
    Workload workload;
    try {
      workload = workloads.find(job.workloadName());
    } catch (IllegalArgumentException unknown) {
      // The server offers a job only to agents that advertise its workload: this will not change.
      return new Fail(unknown.getMessage(), false, "");
    }
    // Probes first: a target that cannot be measured fails the job before any load is sent.
    Sampler sampler;
    try {
      sampler = Probes.check(job.probes(), log, job.id());
    } catch (Probes.ProbeCheckException unusable) {
      return new Fail(unusable.getMessage(), false, "");
    }
    // The commit as it is when the run starts (a checkout may move between jobs).
    GitSource.Captured commit = git.capture(runGit);
    if (commit.problem() != null) log.atWarn().setMessage("git.unreadable").addKeyValue("job", job.id()).addKeyValue("reason", commit.problem()).log();
    RunContext context = new RunContext(running.stopped()::fired, workloads.plugins().classLoader(), workloads.plugins().jars(), sampler);
    CompletableFuture<RunResult> result = new CompletableFuture<>();
    Thread worker = new Thread(() -> {
      try {
        result.complete(runner.run(workload, job.settings(), context));
      } catch (Throwable failure) {
        result.completeExceptionally(failure);
      }
    }, "job-" + job.id());
    worker.setDaemon(true);
    CompletableFuture<Void> stopped = new CompletableFuture<>();
    // No interrupt: the runner polls the cancelled flag and winds down itself (the harness
    // destroys its forked JVM then; an interrupt would leave the fork running).
    Runnable unsubscribe = running.stopped().onFire(() -> stopped.complete(null));
    worker.start();
    try {
      // Whichever comes first; a failed run is read from result below.
      CompletableFuture.anyOf(result, stopped).exceptionally(failed -> null).join();
      if (running.stopped().fired()) {
        try {
          result.get(STOP_WAIT_MS, TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException | InterruptedException ignored) {
          // stopped either way; a run that does not wind down in time is left behind
        }
        sampler.finish();
        return new Stopped(running.stopped().reason());
      }
      RunResult run = result.get();
      return finish(job, workload, run, sampler.finish(), commit.commit(), log);
    } catch (ExecutionException failed) {
      sampler.finish();
      return failure(workload, failed.getCause());
    } catch (InterruptedException interrupted) {
      Thread.currentThread().interrupt();
      return new Stopped(RunningJob.SHUTDOWN);
    } finally {
      unsubscribe.run();
      sampler.closed();
    }
  }

  private static Outcome failure(Workload workload, Throwable cause) {
    if (cause instanceof SettingsException bad) {
      // A setting the workload refuses will be refused on every agent: no point retrying.
      return new Fail("bad settings for workload \"" + workload.name() + "\": " + bad.getMessage(), false, "");
    }
    String message = "workload " + workload.name() + " failed: " + (cause instanceof RunFailedException ? cause.getMessage() : cause.toString());
    String logTail;
    if (cause instanceof RunFailedException failure) {
      logTail = failure.logTail();
    } else {
      StringWriter trace = new StringWriter();
      cause.printStackTrace(new PrintWriter(trace));
      logTail = trace.toString();
    }
    return new Fail(message.length() > 2000 ? message.substring(0, 2000) : message, true, logTail);
  }

  private Outcome finish(Job job, Workload workload, RunResult result, Sampler.Result probed, GitSource.Commit commit, Logger log) {
    ObjectNode run = result.run().deepCopy();
    for (String warning : result.warnings()) log.atWarn().setMessage("job.run_warning").addKeyValue("job", job.id()).addKeyValue("warning", warning).log();
    for (String warning : probed.warnings()) log.atWarn().setMessage("job.probe_warning").addKeyValue("job", job.id()).addKeyValue("warning", warning).log();
    // A required probe that missed intervals makes the run's server figures incomplete. It answered
    // at the start, so its target can answer: another attempt may get a whole window (retryable,
    // as in the Go agent; docs/agent-protocol.md, Probes).
    if (probed.failure() != null) return new Fail(probed.failure(), true, result.logTail());
    JsonNode recorded = run.path("metrics");
    if (recorded.isArray()) ((ArrayNode) recorded).addAll(probed.metrics());
    RunMetrics.Mapped mapped;
    try {
      mapped = RunMetrics.select(job.metrics(), run.path("metrics"));
    } catch (IllegalArgumentException nothingToSend) {
      return new Fail(nothingToSend.getMessage(), false, result.logTail());
    }
    run.set("metrics", mapped.metrics());
    // Fields the run document may carry that are not part of a run of POST /api/v1/results.
    run.remove(List.of("variant", "repetition", "warnings", "logTail"));
    // The harness's warnings (a warm-up that never reached steady state, say) and the probes' go in
    // run.warnings, which the server keeps with the run and shows on its pages; the harness's stay
    // in environment.warnings too, where runs have always carried them.
    List<String> runWarnings = new java.util.ArrayList<>(result.warnings());
    runWarnings.addAll(probed.warnings());
    if (!runWarnings.isEmpty()) run.set("warnings", RunWarnings.of(runWarnings));
    JsonNode environment = run.path("environment");
    ObjectNode env = environment.isObject() ? (ObjectNode) environment : run.putObject("environment");
    env.set("agent", agentIdentity);
    if (!result.warnings().isEmpty() && !env.has("warnings")) {
      ArrayNode warnings = env.putArray("warnings");
      result.warnings().forEach(warnings::add);
    }
    if (!env.has("workload")) env.putObject("workload").put("name", workload.name()).set("settings", job.settings());
    if (commit.hash() != null) {
      run.put("gitCommit", commit.hash());
      if (commit.branch() != null) run.put("gitBranch", commit.branch());
      if (commit.message() != null) run.put("gitCommitMessage", commit.message());
      if (commit.time() != null) run.put("gitCommitTime", commit.time());
    }
    return new Complete(run, mapped.missing());
  }
}
