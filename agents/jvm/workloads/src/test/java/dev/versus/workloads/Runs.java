package dev.versus.workloads;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.versus.harness.Harness;
import dev.versus.harness.RunOptions;
import dev.versus.workload.Workload;

/** Runs a workload through the harness in this JVM, briefly, as the tests need. */
final class Runs {
  private Runs() {}

  static final ObjectMapper MAPPER = new ObjectMapper();
  /** Short and counted: a test must not depend on how fast the machine is. */
  static final String BRIEF = "\"steadyState\": false, \"warmupIterations\": 1, \"iterations\": 2, \"operationsPerIteration\": 20";

  static ObjectNode settings(String json) throws Exception {
    return (ObjectNode) MAPPER.readTree(json);
  }

  static ObjectNode run(Workload workload, String json) throws Exception {
    return Harness.run(workload, settings(json), RunOptions.inProcess()).run();
  }

  static ObjectNode run(Workload workload, String json, RunOptions options) throws Exception {
    return Harness.run(workload, settings(json), options).run();
  }

  static JsonNode metric(ObjectNode run, String key) {
    for (JsonNode m : run.get("metrics")) if (m.get("key").asText().equals(key)) return m;
    throw new AssertionError("no metric " + key + " in " + run);
  }
}
