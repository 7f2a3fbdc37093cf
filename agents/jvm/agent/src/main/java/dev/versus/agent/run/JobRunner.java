package dev.versus.agent.run;

import dev.versus.harness.RunResult;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.versus.agent.api.ApiClient;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import dev.versus.workload.MetricSpec;
import dev.versus.workload.SettingsException;
import dev.versus.workload.Workload;

/**
 * Runs one workload with a job's settings and returns the run document. The agent knows nothing
 * of how a workload is measured; the harness does (see HarnessJobRunner).
 */
public interface JobRunner {
  /**
   * @throws SettingsException the settings are bad (the job fails without a retry, naming the field)
   * @throws Exception the workload failed (the job fails and may be retried)
   */
  RunResult run(Workload workload, JsonNode settings, RunContext context) throws Exception;

  /**
   * The JSON Schema of the settings a job of this workload takes, as the agent advertises it
   * (the dashboard draws its form from it): the workload's own unless the runner adds some.
   */
  /**
   * Every metric a run of this workload can report, as the agent advertises it: the operation
   * time and the workload's own unless the runner adds some.
   */
  default List<MetricSpec> metrics(Workload workload) {
    List<MetricSpec> specs = new ArrayList<>();
    specs.add(workload.operationTime());
    specs.addAll(workload.metrics());
    return specs;
  }

  default ObjectNode settingsSchema(Workload workload) throws IOException {
    JsonNode schema = ApiClient.JSON.readTree(workload.settingsSchema());
    if (schema == null || !schema.isObject()) throw new IOException("settingsSchema() of " + workload.name() + " is not a JSON object");
    return (ObjectNode) schema;
  }
}
