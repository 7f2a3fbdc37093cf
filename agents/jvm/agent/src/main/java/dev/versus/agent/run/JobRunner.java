package dev.versus.agent.run;

import com.fasterxml.jackson.databind.JsonNode;
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
}
