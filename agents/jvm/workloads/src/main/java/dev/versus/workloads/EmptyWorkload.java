package dev.versus.workloads;

import com.fasterxml.jackson.databind.JsonNode;
import dev.versus.workload.Benchmark;
import dev.versus.workload.Workload;

/** An operation that does nothing: what remains is the harness's own cost per operation. */
public final class EmptyWorkload implements Workload {
  @Override
  public String name() {
    return "empty";
  }

  @Override
  public String description() {
    return "Does nothing: the harness's own overhead per operation";
  }

  @Override
  public String settingsSchema() {
    return "{\"type\": \"object\", \"additionalProperties\": false, \"properties\": {}}";
  }

  @Override
  public Benchmark prepare(JsonNode settings) {
    return blackhole -> {};
  }
}
