package dev.versus.agent;

import dev.versus.agent.api.ApiClient;
import dev.versus.agent.api.ApiException;
import dev.versus.agent.api.Job;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Consumer;
import org.slf4j.Logger;

/** The claim loop, on the agent's main thread until it stops: it runs each job it claims. */
final class ClaimLoop {
  private ClaimLoop() {}

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
   * With a machine lock (null: none), each claim and the job it brings happen while the lock is
   * held, with a short long-poll, so the agents sharing a machine take turns.
   */
  static void run(
      ApiClient client,
      Logger log,
      int waitSeconds,
      long jitterMs,
      JobHandler runJob,
      UnreadableHandler reject,
      Consumer<ApiException.Unauthorized> onUnauthorized,
      MachineLock machine,
      Signal until) {
    while (!until.fired()) {
      if (machine != null) {
        try {
          if (!machine.acquire(until)) return;
        } catch (java.io.IOException unusable) {
          log.atError().setMessage("machine_lock.failed").addKeyValue("error", unusable.getMessage()).log();
          until.sleep(5_000);
          continue;
        }
      }
      try {
        Optional<Job> job = client.claim(machine == null ? waitSeconds : Math.min(waitSeconds, MachineLock.CLAIM_WAIT_SECONDS), until);
        job.ifPresent(runJob::run);
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
      } finally {
        if (machine != null) machine.release();
      }
      until.sleep(Math.round(ThreadLocalRandom.current().nextDouble() * jitterMs));
    }
  }
}
