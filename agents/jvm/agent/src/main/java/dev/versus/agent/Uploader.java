package dev.versus.agent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.versus.agent.api.ApiClient;
import dev.versus.agent.api.ApiException;
import java.io.IOException;
import java.util.List;
import java.util.function.Consumer;
import org.slf4j.Logger;

/**
 * Delivers reports from the on-disk buffer: retried (by the client's policy for complete and
 * fail: until accepted) through server outages, removed from disk once the server has answered.
 * The answers that end a report: accepted; 409/404 (the job is not ours any more: drop it); a
 * refused run (400/413/422) becomes a failure report carrying the server's message, so the job
 * does not sit leased until its lease runs out. 401 stops the agent and keeps the report.
 */
public final class Uploader {
  /** What became of a report. */
  public enum Delivery { DELIVERED, DROPPED, KEPT }

  private final ApiClient client;
  private final ResultBuffer buffer;
  private final Logger log;
  private final Consumer<ApiException.Unauthorized> onUnauthorized;

  public Uploader(ApiClient client, ResultBuffer buffer, Logger log, Consumer<ApiException.Unauthorized> onUnauthorized) {
    this.client = client;
    this.buffer = buffer;
    this.log = log;
    this.onUnauthorized = onUnauthorized;
  }

  /** Saves the report, then sends it; KEPT means it is still on disk (shutdown, 401). */
  public Delivery submit(ObjectNode report, Signal until) throws IOException {
    buffer.save(report);
    return deliver(report, until);
  }

  /** Sends reports left on disk by an earlier run of the agent, oldest first. */
  public void drain(List<ObjectNode> reports, Signal until) throws IOException {
    if (!reports.isEmpty()) log.atInfo().setMessage("buffer.resend").addKeyValue("reports", reports.size()).addKeyValue("dir", buffer.dir()).log();
    for (ObjectNode report : reports) {
      if (until.fired()) return;
      if (deliver(report, until) == Delivery.KEPT) return;
    }
  }

  private Delivery deliver(ObjectNode report, Signal until) throws IOException {
    String job = report.path("jobId").asText();
    String leaseToken = report.path("leaseToken").asText();
    boolean complete = "complete".equals(report.path("kind").asText());
    try {
      if (complete) {
        JsonNode answer = client.complete(job, leaseToken, report.path("run"), until);
        JsonNode run = answer == null ? null : answer.path("run");
        log.atInfo().setMessage("job.completed").addKeyValue("job", job).addKeyValue("run", run == null || run.isNull() || run.isMissingNode() ? "none (warm-up)" : run.path("id").asText()).addKeyValue("replayed", answer != null && answer.path("replayed").asBoolean(false)).log();
      } else {
        ObjectNode fail = (ObjectNode) report.path("fail");
        String status = client.fail(job, leaseToken, fail, until);
        log.atInfo().setMessage(fail.path("cancelled").asBoolean(false) ? "job.cancel_acknowledged" : "job.failure_reported").addKeyValue("job", job).addKeyValue("status", status).addKeyValue("error", fail.path("error").asText()).log();
      }
    } catch (ApiException.Conflict | ApiException.NotFound gone) {
      log.atWarn().setMessage("job.result_dropped").addKeyValue("job", job).addKeyValue("reason", gone.getMessage()).log();
      buffer.remove(job);
      return Delivery.DROPPED;
    } catch (ApiException.Rejected refused) {
      if (complete) {
        log.atWarn().setMessage("job.run_refused").addKeyValue("job", job).addKeyValue("reason", refused.getMessage()).log();
        return submit(ResultBuffer.fail(job, leaseToken, "the server refused the run: " + refused.serverMessage(), null, false, false), until);
      }
      // A failure report the server cannot read: nothing the agent could change would help.
      log.atError().setMessage("job.failure_refused").addKeyValue("job", job).addKeyValue("reason", refused.getMessage()).log();
      buffer.remove(job);
      return Delivery.DROPPED;
    } catch (ApiException.Unauthorized unauthorized) {
      onUnauthorized.accept(unauthorized);
      return Delivery.KEPT;
    } catch (ApiException.Unavailable outage) {
      // The policy retries until the agent stops: the report stays for the next start.
      log.atWarn().setMessage("job.result_kept").addKeyValue("job", job).addKeyValue("dir", buffer.dir()).addKeyValue("reason", "the agent is stopping; it is sent at the next start").addKeyValue("error", outage.getMessage()).log();
      return Delivery.KEPT;
    } catch (ApiException other) {
      log.atWarn().setMessage("job.result_kept").addKeyValue("job", job).addKeyValue("dir", buffer.dir()).addKeyValue("error", other.getMessage()).log();
      return Delivery.KEPT;
    }
    buffer.remove(job);
    return Delivery.DELIVERED;
  }
}
