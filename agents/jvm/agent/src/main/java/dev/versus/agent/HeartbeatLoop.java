package dev.versus.agent;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.versus.agent.api.ApiClient;
import dev.versus.agent.api.ApiException;
import dev.versus.agent.api.HeartbeatAnswer;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;

/** The heartbeat loop, on a thread of its own from the agent's start until it halts. */
final class HeartbeatLoop {
  private HeartbeatLoop() {}

  /**
   * Every heartbeatIntervalSeconds (±10%), also while idle: tells the server what the agent runs
   * and hears back which of its jobs users cancelled and whether to stop. The first beat goes at
   * once, so a restarted agent announces its workloads and labels before it claims anything.
   */
  static void run(
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
      until.sleep(Jitter.around(interval * 1000.0));
    }
  }
}
