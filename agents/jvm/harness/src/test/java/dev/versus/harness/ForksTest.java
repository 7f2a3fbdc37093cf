package dev.versus.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.versus.workload.Benchmark;
import dev.versus.workload.Workload;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** A forked run measures in {@code forks} fresh JVMs, one after another, and reports them as one run. */
class ForksTest {
  private static final TestWorkloads.Alloc ALLOC = new TestWorkloads.Alloc();
  private static final String QUICK = "\"steadyState\": false, \"warmupIterations\": 1, \"iterations\": 2, \"operationsPerIteration\": 1000";

  @Test
  void eachForkIsAFreshJvmAndTheRunIsTheirUnion() throws Exception {
    List<String> log = Collections.synchronizedList(new ArrayList<>());
    RunResult result = Harness.run(new TestWorkloads.Slow(), HarnessTest.settings("{\"forks\": 2, \"steadyState\": false, \"warmupIterations\": 1, \"iterations\": 1, \"operationsPerIteration\": 2}"),
        RunOptions.defaults().withLog(log::add));
    Set<String> pids = new TreeSet<>();
    for (String line : log) if (line.startsWith("test-slow: started in pid ")) pids.add(line.substring("test-slow: started in pid ".length()).trim());
    assertEquals(2, pids.size(), log.toString());
    assertFalse(pids.contains(String.valueOf(ProcessHandle.current().pid())));
    assertTrue(log.indexOf("fork 1 of 2") < log.indexOf("fork 2 of 2") && log.indexOf("fork 1 of 2") >= 0, log.toString());
    assertEquals(4, HarnessTest.metric(result.run(), "sleep_time").get("summary").get("n").asLong(), "both forks' measured operations");
  }

  @Test
  void theRunRecordsItsForksAndTheirSpread() throws Exception {
    ObjectNode run = Harness.run(ALLOC, HarnessTest.settings("{\"size\": 64, \"forks\": 2, " + QUICK + "}"), RunOptions.defaults()).run();
    assertEquals(4000, HarnessTest.metric(run, "op_time").get("summary").get("n").asLong());
    assertEquals(4, HarnessTest.metric(run, Harness.THROUGHPUT).get("samples").size(), "2 iterations in each of 2 forks");
    JsonNode calls = HarnessTest.metric(run, "calls").get("summary");
    assertEquals(2, calls.get("n").asLong(), "one figure per fork");
    assertEquals(3000, calls.get("mean").asLong(), "each fork: 1000 warm-up and 2000 measured calls");
    JsonNode harness = run.get("environment").get("harness");
    assertEquals(2, harness.get("forks").asInt(), harness.toString());
    assertEquals(2, harness.get("forkRuns").size(), harness.toString());
    for (JsonNode fork : harness.get("forkRuns")) assertTrue(fork.get("operationTime").asDouble() > 0 && fork.has("warmup") && fork.has("measuredCvPercent"), harness.toString());
    assertTrue(harness.get("forkSpreadPercent").asDouble() >= 0, harness.toString());
    assertEquals(2, harness.get("warmup").get("iterations").asInt(), "1 warm-up iteration in each fork");
  }

  @Test
  void withoutForksTheRunTakesTheDefaultOfTheWorkloadsSchema() throws Exception {
    assertEquals(3, Harness.settingsSchema(ALLOC).get("properties").get("forks").get("default").asInt());
    ObjectNode byDefault = Harness.run(ALLOC, HarnessTest.settings("{\"size\": 64, " + QUICK + "}"), RunOptions.defaults()).run();
    assertEquals(3, byDefault.get("environment").get("harness").get("forks").asInt(), "the harness's default");
    ObjectNode own = Harness.run(new OneFork(), HarnessTest.settings("{" + QUICK + "}"), RunOptions.defaults()).run();
    assertEquals(1, own.get("environment").get("harness").get("forks").asInt(), "the workload's own default");
    assertFalse(own.get("environment").get("harness").has("forkRuns"));
  }

  @Test
  void anInProcessRunIsOneJvmWhateverForksSays() throws Exception {
    ObjectNode run = Harness.run(ALLOC, HarnessTest.settings("{\"size\": 64, \"forks\": 4, " + QUICK + "}"), RunOptions.inProcess()).run();
    assertEquals(1, run.get("environment").get("harness").get("forks").asInt());
    assertEquals(2000, HarnessTest.metric(run, "op_time").get("summary").get("n").asLong());
  }

  @Test
  void aFailingForkFailsTheRun() {
    RunFailedException failed = org.junit.jupiter.api.Assertions.assertThrows(RunFailedException.class,
        () -> Harness.run(ALLOC, HarnessTest.settings("{\"forks\": 2, \"failAt\": 5, \"warmupIterations\": 1, \"operationsPerIteration\": 10}"), RunOptions.defaults()));
    assertTrue(failed.getMessage().contains("failing at call 5"), failed.getMessage());
  }

  /** A workload whose own schema sets forks to 1, as a load test's does. */
  public static final class OneFork implements Workload {
    @Override
    public String name() {
      return "test-one-fork";
    }

    @Override
    public String description() {
      return "its schema's forks default is 1";
    }

    @Override
    public String settingsSchema() {
      return "{\"type\": \"object\", \"properties\": {\"forks\": {\"type\": \"integer\", \"minimum\": 1, \"maximum\": 20, \"default\": 1}}}";
    }

    @Override
    public Benchmark prepare(JsonNode settings) {
      return blackhole -> blackhole.consume(settings);
    }
  }
}
