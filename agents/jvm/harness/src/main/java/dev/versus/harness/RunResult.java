package dev.versus.harness;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * A finished run.
 *
 * @param run one run of {@code POST /api/v1/results} without variant and repetition (startedAt,
 *     finishedAt, environment, metrics): the {@code run} of {@code POST /jobs/{id}/complete} as it is
 * @param warnings caveats a reader must see (also in {@code run.environment.warnings})
 * @param logTail the last lines of the run's log (the fork's stderr included)
 */
public record RunResult(ObjectNode run, List<String> warnings, String logTail) {
  public RunResult {
    warnings = List.copyOf(warnings);
  }
}
