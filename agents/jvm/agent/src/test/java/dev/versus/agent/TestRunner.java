package dev.versus.agent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.versus.agent.api.ApiClient;
import dev.versus.agent.run.JobRunner;
import dev.versus.agent.run.RunContext;
import dev.versus.harness.RunResult;
import dev.versus.workload.Workload;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/** A JobRunner double: returns a fixed run document, or does what a test says. */
final class TestRunner implements JobRunner {
  interface Behaviour {
    RunResult run(Workload workload, JsonNode settings, RunContext context) throws Exception;
  }

  final CountDownLatch started = new CountDownLatch(1);
  volatile boolean sawCancel;
  private final Behaviour behaviour;

  TestRunner(Behaviour behaviour) {
    this.behaviour = behaviour;
  }

  /** Returns {@link #document()} at once. */
  static TestRunner quick() {
    return new TestRunner((workload, settings, context) -> new RunResult(document(), List.of("a caveat"), ""));
  }

  /** Runs until cancelled, then throws as a cancelled harness run does. */
  static TestRunner untilCancelled() {
    return new TestRunner(null);
  }

  @Override
  public RunResult run(Workload workload, JsonNode settings, RunContext context) throws Exception {
    started.countDown();
    if (behaviour != null) return behaviour.run(workload, settings, context);
    while (!context.cancelled().getAsBoolean()) Thread.sleep(5);
    sawCancel = true;
    throw new IllegalStateException("cancelled");
  }

  /** op_time in ns (samples) and payload_bytes (summary), as the harness reports a run. */
  static ObjectNode document() {
    ObjectNode run = ApiClient.JSON.createObjectNode().put("startedAt", "2026-01-01T00:00:00Z").put("finishedAt", "2026-01-01T00:00:01Z");
    run.putObject("environment").put("javaVersion", "17");
    var metrics = run.putArray("metrics");
    ObjectNode time = metrics.addObject().put("key", "op_time").put("unit", "ns").put("direction", "lower_is_better");
    time.putArray("samples").add(1000).add(3000);
    metrics.addObject().put("key", "payload_bytes").put("unit", "B").put("direction", "lower_is_better").putObject("summary").put("n", 2).put("mean", 2048);
    return run;
  }
}
