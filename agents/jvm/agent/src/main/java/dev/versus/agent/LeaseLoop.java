package dev.versus.agent;

import dev.versus.agent.api.ApiClient;
import dev.versus.agent.api.ApiException;
import dev.versus.agent.api.Job;
import java.util.function.Consumer;
import org.slf4j.Logger;

/** The lease loop of a running job, on a thread of its own while the job runs and reports. */
final class LeaseLoop {
  private LeaseLoop() {}

  /**
   * Renews a running job's lease every leaseSeconds / 3, so one lost renewal still leaves time
   * for two more. 409 or 404: the job is not ours any more; it stops and its result is dropped.
   */
  static void run(ApiClient client, RunningJob running, Logger log, Consumer<ApiException.Unauthorized> onUnauthorized, Signal until) {
    Job job = running.job();
    double everyMs = job.leaseSeconds() * 1000.0 / 3;
    while (!until.fired()) {
      if (until.sleep(Jitter.around(everyMs))) return;
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
}
