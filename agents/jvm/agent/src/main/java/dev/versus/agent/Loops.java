package dev.versus.agent;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.versus.agent.api.ApiClient;
import dev.versus.agent.api.ApiException;
import dev.versus.agent.api.HeartbeatAnswer;
import dev.versus.agent.api.Job;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;

/** The agent's three loops: heartbeat, lease renewal of a running job, and claims. */
final class Loops {
  private Loops() {}

  /** ms moved by up to ±10% of itself, at random, so a fleet of agents does not call in step. */
  static long jitter(double ms) {
    return Math.round(ms * (0.9 + 0.2 * ThreadLocalRandom.current().nextDouble()));
  }

  /**
   * Every heartbeatIntervalSeconds (±10%), also while idle: tells the server what the agent runs
   * and hears back which of its jobs users cancelled and whether to stop. The first beat goes at
   * once, so a restarted agent announces its workloads and labels before it claims anything.
   */
  static void heartbeat(
      ApiClient client,
      Logger log,
      Supplier<ObjectNode> announce,
      Map<String, RunningJob> running,
      int intervalSeconds,
      Runnable onStopRequested,
      Consumer<ApiException.Unauthorized> onUnauthorized,
      Signal until) {
    int interval = intervalSeconds;
    while (!until.fired()) {
      ObjectNode body = announce.get();
      ArrayNode ids = body.putArray("runningJobIds");
      running.keySet().forEach(ids::add);
      try {
        HeartbeatAnswer answer = client.heartbeat(body, until);
        if (answer.heartbeatIntervalSeconds() > 0) interval = answer.heartbeatIntervalSeconds();
        for (String id : answer.cancelJobIds()) {
          RunningJob job = running.get(id);
          if (job != null) {
            log.atInfo().setMessage("job.cancel_requested").addKeyValue("job", id).addKeyValue("via", "heartbeat").log();
            job.stop(RunningJob.CANCELLED);
          }
        }
        if (answer.stop()) onStopRequested.run();
      } catch (ApiException.Unauthorized unauthorized) {
        onUnauthorized.accept(unauthorized);
        return;
      } catch (ApiException | RuntimeException failed) {
        if (until.fired()) return;
        log.atWarn().setMessage("heartbeat.failed").addKeyValue("error", failed.getMessage()).log();
      }
      until.sleep(jitter(interval * 1000.0));
    }
  }

  /**
   * Renews a running job's lease every leaseSeconds / 3, so one lost renewal still leaves time
   * for two more. 409 or 404: the job is not ours any more; it stops and its result is dropped.
   */
  static void lease(ApiClient client, RunningJob running, Logger log, Consumer<ApiException.Unauthorized> onUnauthorized, Signal until) {
    Job job = running.job();
    double everyMs = job.leaseSeconds() * 1000.0 / 3;
    while (!until.fired()) {
      if (until.sleep(jitter(everyMs))) return;
      try {
        if (client.renewLease(job.id(), job.leaseToken(), until)) {
          log.atInfo().setMessage("job.cancel_requested").addKeyValue("job", job.id()).addKeyValue("via", "lease").log();
          running.stop(RunningJob.CANCELLED);
        }
      } catch (ApiException.Conflict | ApiException.NotFound gone) {
        if (until.fired()) return;
        log.atWarn().setMessage("job.lease_lost").addKeyValue("job", job.id()).addKeyValue("reason", gone.getMessage()).log();
        running.stop(RunningJob.LEASE_LOST);
        return;
      } catch (ApiException.Unauthorized unauthorized) {
        onUnauthorized.accept(unauthorized);
        return;
      } catch (ApiException | RuntimeException failed) {
        if (until.fired()) return;
        // Still unreachable after the call's retries: keep running and try at the next renewal;
        // if the lease runs out meanwhile, the server says 409 then.
        log.atWarn().setMessage("job.lease_renewal_failed").addKeyValue("job", job.id()).addKeyValue("error", failed.getMessage()).log();
      }
    }
  }

  /** Runs a claimed job to its report. */
  interface JobHandler {
    void run(Job job);
  }

  /** Fails a leased job the agent could not read. */
  interface UnreadableHandler {
    void reject(ApiException.UnreadableJob job);
  }

  /**
   * Claims with a long poll, runs what comes, claims again after a random pause of up to
   * jitterMs. One job at a time: two measurements sharing a machine disturb each other's numbers.
   * Runs until until fires (a running job is finished first); stopping abandons a waiting claim.
   */
  static void claim(
      ApiClient client,
      Logger log,
      int waitSeconds,
      long jitterMs,
      JobHandler runJob,
      UnreadableHandler reject,
      Consumer<ApiException.Unauthorized> onUnauthorized,
      Signal until) {
    while (!until.fired()) {
      Optional<Job> job;
      try {
        job = client.claim(waitSeconds, until);
      } catch (ApiException.Unauthorized unauthorized) {
        if (!until.fired()) onUnauthorized.accept(unauthorized);
        return;
      } catch (ApiException.UnreadableJob unreadable) {
        log.atError().setMessage("job.unreadable").addKeyValue("job", unreadable.jobId()).addKeyValue("error", unreadable.getMessage()).log();
        reject.reject(unreadable);
        continue;
      } catch (ApiException | RuntimeException refused) {
        if (until.fired()) return;
        // Not an outage (the client retries those without end): a request the server refused.
        log.atError().setMessage("claim.failed").addKeyValue("error", refused.getMessage()).log();
        until.sleep(5_000 + Math.round(ThreadLocalRandom.current().nextDouble() * jitterMs));
        continue;
      }
      job.ifPresent(runJob::run);
      until.sleep(Math.round(ThreadLocalRandom.current().nextDouble() * jitterMs));
    }
  }
}
