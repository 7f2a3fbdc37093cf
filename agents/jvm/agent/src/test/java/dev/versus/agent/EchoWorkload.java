package dev.versus.agent;

import com.fasterxml.jackson.databind.JsonNode;
import dev.versus.workload.Benchmark;
import dev.versus.workload.Workload;

/** A built-in workload of the tests' class path (listed in META-INF/services there). */
public final class EchoWorkload implements Workload {
  @Override
  public String name() {
    return "echo";
  }

  @Override
  public String description() {
    return "Does nothing, for tests";
  }

  @Override
  public String settingsSchema() {
    return "{\"type\":\"object\",\"properties\":{\"iterations\":{\"type\":\"integer\",\"minimum\":1}}}";
  }

  @Override
  public Benchmark prepare(JsonNode settings) {
    return blackhole -> blackhole.consume(1);
  }
}
