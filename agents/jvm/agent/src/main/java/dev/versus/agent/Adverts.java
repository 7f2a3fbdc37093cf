package dev.versus.agent;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.versus.agent.api.ApiClient;
import dev.versus.agent.plugins.WorkloadFactory;
import dev.versus.agent.run.JobRunner;
import dev.versus.workload.MetricSpec;
import dev.versus.workload.Workload;
import java.io.IOException;
import org.slf4j.Logger;

/**
 * What register and heartbeat advertise of each workload (docs/agent-protocol.md): its name,
 * description, settings schema (the runner's: the harness adds its common settings) and every
 * metric a run of it can report. `java -jar versus-agent-jvm.jar workloads` prints the same list.
 */
final class Adverts {
  private Adverts() {}

  static ArrayNode of(WorkloadFactory workloads, JobRunner runner, Logger log) {
    ArrayNode adverts = ApiClient.JSON.createArrayNode();
    for (Workload workload : workloads.offered()) {
      ObjectNode advert = adverts.addObject().put("name", workload.name()).put("description", workload.description());
      try {
        advert.set("settingsSchema", runner.settingsSchema(workload));
      } catch (IOException | RuntimeException badSchema) {
        log.atWarn().setMessage("workload.bad_schema").addKeyValue("workload", workload.name()).addKeyValue("error", badSchema.getMessage()).log();
        advert.putObject("settingsSchema").put("type", "object");
      }
      try {
        ArrayNode metrics = ApiClient.JSON.createArrayNode();
        for (MetricSpec spec : runner.metrics(workload)) {
          metrics.addObject().put("key", spec.key()).put("unit", spec.unit()).put("direction", spec.direction().wire())
              .put("aggregation", spec.aggregation()).put("description", spec.description() == null ? "" : spec.description());
        }
        advert.set("metrics", metrics);
      } catch (RuntimeException badMetrics) {
        // Left out, the server checks no experiment against this workload's metrics.
        log.atWarn().setMessage("workload.bad_metrics").addKeyValue("workload", workload.name()).addKeyValue("error", badMetrics.getMessage()).log();
      }
    }
    return adverts;
  }
}
