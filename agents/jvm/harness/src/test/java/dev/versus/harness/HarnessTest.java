package dev.versus.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.versus.workload.SettingsException;
import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.Set;
import java.util.TreeSet;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class HarnessTest {
  private static final TestWorkloads.Alloc ALLOC = new TestWorkloads.Alloc();

  static ObjectNode settings(String json) throws Exception {
    return (ObjectNode) Harness.MAPPER.readTree(json);
  }

  static JsonNode metric(ObjectNode run, String key) {
    for (JsonNode m : run.get("metrics")) if (m.get("key").asText().equals(key)) return m;
    throw new AssertionError("no metric " + key + " in " + run);
  }

  /**
   * The run's warnings but MeasuredNoise's, which a short run on a busy machine may carry or not
   * (in a run of several forks, prefixed with its fork).
   */
  static java.util.List<String> warningsBesideNoise(ObjectNode run) {
    java.util.List<String> warnings = new java.util.ArrayList<>();
    for (JsonNode warning : run.get("environment").path("warnings")) {
      // A fork's own ("fork 2 of 3: …") or the forks' merged one ("forks 2 and 3 of 3: …", ForkWarnings).
      String own = warning.asText().replaceFirst("^forks? \\d+(?:(?:, | and )\\d+)* of \\d+: ", "");
      if (!own.startsWith("the measured iterations' times per operation varied by a CV of ")) warnings.add(warning.asText());
    }
    return warnings;
  }

  @Test
  void countsEveryOperationAndMeasuresOnlyTheMeasuredOnes() throws Exception {
    ObjectNode s = settings("{\"size\": 16, \"steadyState\": false, \"warmupIterations\": 2, \"iterations\": 3, \"operationsPerIteration\": 1000}");
    ObjectNode run = Harness.run(ALLOC, s, RunOptions.inProcess()).run();
    assertEquals(5000, metric(run, "calls").get("summary").get("mean").asLong(), "warm-up and measured calls");
    assertEquals(3000, metric(run, "op_time").get("summary").get("n").asLong());
    assertEquals(3, metric(run, "throughput").get("samples").size(), "one throughput sample per iteration");
    Histogram histogram = decode(metric(run, "op_time").get("histogram").asText());
    assertEquals(3000, histogram.getTotalCount());
  }

  @Test
  void aWarmupThatNeverSettlesIsMeasuredWithAWarning() throws Exception {
    // maxWarmupTime is up after the first 20 ms iteration: too few iterations for the trend test
    // (whether real iteration times trend is the machine's business; SteadyStateTest has the test).
    RunResult result = Harness.run(ALLOC, settings("{\"warmupTime\": 20, \"maxWarmupTime\": 1, \"iterations\": 2, \"iterationTime\": 20}"), RunOptions.inProcess());
    JsonNode harness = result.run().get("environment").get("harness");
    JsonNode warmup = harness.get("warmup");
    assertEquals("not reached", warmup.get("steadyState").asText(), harness.toString());
    assertEquals(1, warmup.get("iterations").asInt(), harness.toString());
    assertTrue(harness.get("steadyState").asBoolean() && harness.get("maxWarmupTimeMs").asLong() == 1, harness.toString());
    assertTrue(harness.get("measuredCvPercent").asDouble() >= 0, harness.toString());
    assertEquals(1, result.warnings().size(), result.warnings().toString());
    String warning = result.warnings().get(0);
    assertTrue(warning.matches("did not reach steady state in 0\\.0\\d+ s: only 1 warm-up iteration fitted, the trend test needs 5 \\(measured iterations' CV \\d+\\.\\d%\\); .*"), warning);
    assertEquals(warning, result.run().get("environment").get("warnings").get(0).asText());
  }

  @Test
  void measuredIterationsThatVaryMuchAreWarnedAboutOnTheRun() throws Exception {
    // Iterations of 1 ms and 10 ms sleeps in turn: a CV near 90%, however busy the machine.
    RunResult result = Harness.run(new TestWorkloads.Uneven(), settings("{\"steadyState\": false, \"warmupIterations\": 1, \"iterations\": 4, \"operationsPerIteration\": 3}"), RunOptions.inProcess());
    double cv = result.run().get("environment").get("harness").get("measuredCvPercent").asDouble();
    assertTrue(cv > 10, "measuredCvPercent " + cv);
    assertEquals(1, result.warnings().size(), result.warnings().toString());
    java.util.regex.Matcher warning = java.util.regex.Pattern.compile("the measured iterations' times per operation varied by a CV of (\\d+\\.\\d)%, more than 10%, after a fixed warm-up of 1 iteration: .*")
        .matcher(result.warnings().get(0));
    assertTrue(warning.matches(), result.warnings().get(0));
    // The figure is the recorded one (there rounded to 0.01, here to 0.1).
    assertEquals(cv, Double.parseDouble(warning.group(1)), 0.051, result.warnings().get(0));
    assertEquals(result.warnings().get(0), result.run().get("environment").get("warnings").get(0).asText());
  }

  @Test
  void theRunRecordsItsWarmupAndTheMeasuredIterationsCv() throws Exception {
    ObjectNode adaptive = Harness.run(ALLOC, settings("{\"size\": 16, \"warmupIterations\": 2, \"iterations\": 3, \"operationsPerIteration\": 1000}"), RunOptions.inProcess()).run();
    JsonNode harness = adaptive.get("environment").get("harness");
    // At least five iterations (the trend test's window); whether they settled depends on the machine.
    assertTrue(harness.get("warmup").get("iterations").asInt() >= 5, harness.toString());
    assertTrue(Set.of("reached", "not reached").contains(harness.get("warmup").get("steadyState").asText()), harness.toString());
    assertTrue(harness.get("warmup").get("test").asText().startsWith("least-squares drift or a step"), harness.toString());
    assertTrue(harness.get("measuredCvPercent").isNumber(), harness.toString());

    ObjectNode fixed = Harness.run(ALLOC, settings("{\"size\": 16, \"steadyState\": false, \"warmupIterations\": 2, \"iterations\": 3, \"operationsPerIteration\": 1000}"), RunOptions.inProcess()).run();
    JsonNode fixedWarmup = fixed.get("environment").get("harness").get("warmup");
    assertEquals(2, fixedWarmup.get("iterations").asInt());
    assertEquals("not tested", fixedWarmup.get("steadyState").asText());
    // A fixed warm-up is not tested, so it says nothing about steady state (its measured
    // iterations may still have varied enough for MeasuredNoise's warning: the machine's doing).
    assertEquals(java.util.List.of(), warningsBesideNoise(fixed), fixed.get("environment").path("warnings").toString());
  }

  @Test
  void iterationSetupAndTeardownRunAroundEveryIterationUntimed() throws Exception {
    java.util.List<String> calls = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
    dev.versus.workload.Workload hooked = new dev.versus.workload.Workload() {
      @Override
      public String name() {
        return "test-hooks";
      }

      @Override
      public String description() {
        return "records its iteration hooks";
      }

      @Override
      public String settingsSchema() {
        return "{\"type\": \"object\", \"properties\": {}}";
      }

      @Override
      public dev.versus.workload.Benchmark prepare(JsonNode settings) {
        return new dev.versus.workload.Benchmark() {
          int ops;

          @Override
          public void beforeIteration() {
            ops = 0;
            calls.add("before");
          }

          @Override
          public void operation(dev.versus.workload.Blackhole blackhole) {
            ops++;
          }

          @Override
          public void afterIteration() {
            calls.add("after " + ops);
          }

          @Override
          public void beforeMeasurement() {
            calls.add("measurement");
          }
        };
      }
    };
    Harness.run(hooked, settings("{\"steadyState\": false, \"warmupIterations\": 2, \"iterations\": 3, \"operationsPerIteration\": 100}"), RunOptions.inProcess());
    java.util.List<String> expected = new java.util.ArrayList<>();
    for (int i = 0; i < 5; i++) {
      if (i == 2) expected.add("measurement");
      expected.addAll(java.util.List.of("before", "after 100"));
    }
    assertEquals(expected, calls, "each of 2 warm-up and 3 measured iterations, around its 100 operations; beforeMeasurement once between them");
  }

  @Test
  void theHistogramDecodesInTheMetricsUnitWithItsScale() throws Exception {
    ObjectNode run = Harness.run(ALLOC, settings("{\"warmupIterations\": 1, \"iterations\": 2, \"operationsPerIteration\": 500, \"batchSize\": 1}"), RunOptions.inProcess()).run();
    JsonNode time = metric(run, "op_time");
    assertEquals("ns", time.get("unit").asText());
    assertEquals("lower_is_better", time.get("direction").asText());
    assertEquals(1000.0, time.get("histogramScale").asDouble(), "picoseconds in a ns metric");
    Histogram histogram = decode(time.get("histogram").asText());
    assertEquals(1000, histogram.getTotalCount());
    // Every operation was timed alone here, so the histogram's mean is the summary's (to its 3 digits).
    double mean = time.get("summary").get("mean").asDouble();
    assertEquals(mean, histogram.getMean() / 1000.0, mean * 0.01);
  }

  @Test
  void allocationPerOperationIsTheArraysSize() throws Exception {
    // A byte[1000] is 1016 bytes on the heap (16 bytes of header and length). The blackhole makes
    // the array escape, so escape analysis cannot remove the allocation once C2 compiles the loop.
    ObjectNode run = Harness.run(ALLOC, settings("{\"size\": 1000, \"warmupIterations\": 3, \"iterations\": 3, \"operationsPerIteration\": 20000}"), RunOptions.inProcess()).run();
    double perOp = metric(run, "alloc_per_op").get("summary").get("mean").asDouble();
    assertEquals(1016, perOp, 1016 * 0.03, "alloc_per_op " + perOp);
  }

  @Test
  void settingsProblemsNameTheField() {
    SettingsException wrongType = assertThrows(SettingsException.class, () -> Harness.run(ALLOC, settings("{\"size\": \"big\"}"), RunOptions.inProcess()));
    assertEquals("size", wrongType.field());
    SettingsException extra = assertThrows(SettingsException.class, () -> Harness.run(ALLOC, settings("{\"sizee\": 3}"), RunOptions.inProcess()));
    assertEquals("", extra.field());
    assertTrue(extra.getMessage().startsWith("settings: unknown setting 'sizee'; valid settings are size, "), extra.getMessage());
    SettingsException common = assertThrows(SettingsException.class, () -> Harness.run(ALLOC, settings("{\"iterations\": 0}"), RunOptions.inProcess()));
    assertEquals("iterations", common.field());
    assertTrue(common.getMessage().startsWith("settings.iterations: "), common.getMessage());
    SettingsException fromPrepare = assertThrows(SettingsException.class, () -> Harness.run(ALLOC, settings("{\"reject\": true}"), RunOptions.inProcess()));
    assertEquals("reject", fromPrepare.field());
  }

  @Test
  void unknownSettingsNameTheValidOnes() throws Exception {
    // k6's words for a JVM workload: every unknown setting in one message, with the settings it takes.
    SettingsException extra = assertThrows(SettingsException.class, () -> Harness.run(ALLOC, settings("{\"target\": \"x\", \"size\": 8, \"vus\": 10}"), RunOptions.inProcess()));
    StringBuilder valid = new StringBuilder();
    Harness.settingsSchema(ALLOC).get("properties").fieldNames().forEachRemaining(name -> valid.append(valid.length() == 0 ? "" : ", ").append(name));
    assertEquals("settings: unknown settings 'target', 'vus'; valid settings are " + valid, extra.getMessage());
    assertEquals("", extra.field());
  }

  @Test
  void theAdvertisedMetricsAreTheHarnesssThenTheWorkloads() {
    java.util.List<dev.versus.workload.MetricSpec> metrics = Harness.metrics(ALLOC);
    assertEquals("op_time", metrics.get(0).key());
    assertEquals("mean", metrics.get(0).aggregation());
    assertTrue(metrics.stream().anyMatch(m -> m.key().equals("calls")), metrics.toString());
  }

  @Test
  void theAdvertisedSchemaHasTheCommonSettings() {
    ObjectNode schema = Harness.settingsSchema(ALLOC);
    JsonNode properties = schema.get("properties");
    for (String name : HarnessSettings.names()) assertTrue(properties.has(name), name);
    assertTrue(properties.has("size"));
  }

  @Test
  void aFailingOperationFailsTheRunWithItsLogTail() {
    RunFailedException failed = assertThrows(RunFailedException.class,
        () -> Harness.run(ALLOC, settings("{\"failAt\": 50, \"warmupIterations\": 1, \"operationsPerIteration\": 100}"), RunOptions.inProcess()));
    assertTrue(failed.getMessage().contains("failing at call 50"), failed.getMessage());
    assertTrue(failed.logTail().contains("test-alloc"), failed.logTail());
  }

  @Test
  void aForkedRunHasTheInProcessRunsShape() throws Exception {
    ObjectNode s = settings("{\"size\": 64, \"steadyState\": false, \"warmupIterations\": 1, \"iterations\": 2, \"operationsPerIteration\": 2000}");
    RunResult here = Harness.run(ALLOC, s, RunOptions.inProcess());
    RunResult forked = Harness.run(ALLOC, s, RunOptions.defaults().withJvmArgs(java.util.List.of("-Xmx256m")));
    assertEquals(shape(here.run()), shape(forked.run()));
    assertEquals(warningsBesideNoise(here.run()), warningsBesideNoise(forked.run()));
    assertTrue(forked.run().get("environment").get("harness").get("forked").asBoolean());
    assertFalse(here.run().get("environment").get("harness").get("forked").asBoolean());
    assertTrue(forked.run().get("environment").get("jvmArgs").toString().contains("-Xmx256m"));
    assertEquals(6000, metric(forked.run(), "calls").get("summary").get("mean").asLong());
    assertTrue(forked.logTail().contains("measured 4000 operations"), forked.logTail());
  }

  @Test
  void aForkCarriesBackSettingsErrorsAndFailures() throws Exception {
    SettingsException rejected = assertThrows(SettingsException.class, () -> Harness.run(ALLOC, settings("{\"reject\": true}"), RunOptions.defaults()));
    assertEquals("reject", rejected.field());
    assertEquals("settings.reject: rejected by prepare", rejected.getMessage());
    RunFailedException failed = assertThrows(RunFailedException.class,
        () -> Harness.run(ALLOC, settings("{\"failAt\": 5, \"warmupIterations\": 1, \"operationsPerIteration\": 10}"), RunOptions.defaults()));
    assertTrue(failed.getMessage().contains("failing at call 5"), failed.getMessage());
    assertTrue(failed.logTail().contains("IllegalStateException"), failed.logTail());
  }

  @Test
  void cancellingDestroysTheFork() throws Exception {
    var started = new java.util.concurrent.CountDownLatch(1);
    var pid = new java.util.concurrent.atomic.AtomicLong();
    RunOptions options = RunOptions.defaults()
        .withLog(line -> {
          if (line.startsWith("test-slow: started in pid ")) {
            pid.set(Long.parseLong(line.substring("test-slow: started in pid ".length()).trim()));
            started.countDown();
          }
        })
        .withCancellation(() -> started.getCount() == 0);
    // An hour of iterations: only the cancellation ends this run.
    assertThrows(RunCancelledException.class, () -> Harness.run(new TestWorkloads.Slow(), settings("{\"iterations\": 3600, \"iterationTime\": 1000}"), options));
    assertTrue(pid.get() > 0);
    assertFalse(ProcessHandle.of(pid.get()).map(ProcessHandle::isAlive).orElse(false), "the fork is gone");
  }

  @Test
  void cancellingInProcessStopsTheMeasuringThreads() {
    var calls = new java.util.concurrent.atomic.AtomicInteger();
    RunOptions options = RunOptions.inProcess().withCancellation(() -> calls.incrementAndGet() > 3);
    assertThrows(RunCancelledException.class, () -> Harness.run(new TestWorkloads.Slow(), settings("{\"iterations\": 3600, \"iterationTime\": 1000}"), options));
    assertTrue(Thread.getAllStackTraces().keySet().stream().noneMatch(t -> t.getName().startsWith("versus-measure-")), "no measuring thread left");
  }

  /** Metric keys with their units and fields, and the environment's keys (values differ by run). */
  /**
   * The run's fields, its environment's and its metrics'; not environment.warnings, which one of
   * two short runs on a busy machine may have (MeasuredNoise's) and the other not.
   */
  static Set<String> shape(ObjectNode run) {
    Set<String> shape = new TreeSet<>();
    run.fieldNames().forEachRemaining(f -> shape.add("run." + f));
    run.get("environment").fieldNames().forEachRemaining(f -> {
      if (!f.equals("warnings")) shape.add("environment." + f);
    });
    for (JsonNode m : run.get("metrics")) m.fieldNames().forEachRemaining(f -> shape.add(m.get("key").asText() + "." + f + (f.equals("unit") ? "=" + m.get(f).asText() : "")));
    return shape;
  }

  static Histogram decode(String base64) throws Exception {
    return Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(Base64.getDecoder().decode(base64)), 0);
  }
}
