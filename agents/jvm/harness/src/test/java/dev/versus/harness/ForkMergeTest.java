package dev.versus.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.versus.workload.Direction;
import dev.versus.workload.MetricSpec;
import dev.versus.workload.Summary;
import java.time.Instant;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/** The runs of several forks as one run: each metric merged as one longer run would have it. */
class ForkMergeTest {
  private static final List<MetricSpec> SPECS = List.of(
      new MetricSpec("op_time", "ns", Direction.LOWER_IS_BETTER, "time"),
      new MetricSpec(Harness.THROUGHPUT, "ops/s", Direction.HIGHER_IS_BETTER, "throughput"),
      new MetricSpec(Harness.GC_COUNT, "count", Direction.LOWER_IS_BETTER, "collections"),
      new MetricSpec(Harness.CPU_PERCENT, "%", Direction.LOWER_IS_BETTER, "cpu"),
      new MetricSpec("ratio", "%", Direction.LOWER_IS_BETTER, "a value"));

  /** A fork's run as InProcess writes it: ops operations of meanNs, two iterations, a warning. */
  private static ForkMerge.ForkRun fork(int index, long ops, double meanNs, double sdNs, double minNs, double maxNs, int gcCount, double[] iterationNs, String steadyState) {
    RunRecorder recorder = new RunRecorder(Harness.MAPPER, SPECS, null);
    Histogram histogram = Measurement.newHistogram();
    histogram.recordValueWithCount(Math.round(meanNs * Measurement.PS_PER_NS), ops);
    recorder.histogram("op_time", histogram, Measurement.PS_PER_NS);
    recorder.summary("op_time", new Summary(ops, meanNs, sdNs, minNs, maxNs));
    for (double ns : iterationNs) recorder.sample(Harness.THROUGHPUT, 1e9 / ns);
    recorder.summary(Harness.GC_COUNT, Summary.constant(1, gcCount));
    recorder.series(Harness.CPU_PERCENT, Instant.parse("2026-11-29T00:00:0" + index + "Z"), 1000, new double[] {90 + index, 95 + index});
    recorder.value("ratio", 10 * index);
    recorder.warn("warning of fork " + index);
    ObjectNode environment = Harness.MAPPER.createObjectNode();
    environment.put("loadAverage1m", 1.5 + index);
    ObjectNode harness = environment.putObject("harness");
    harness.put("iterations", iterationNs.length);
    harness.put("forks", 1);
    harness.put("batchSize", 4 * index);
    ObjectNode warmup = harness.putObject("warmup");
    warmup.put("iterations", 5 + index);
    warmup.put("timeMs", 5000 + 1000 * index);
    warmup.put("steadyState", steadyState);
    harness.put("measuredCvPercent", Math.round(SteadyState.cv(iterationNs) * 10000) / 100.0);
    harness.put("forked", true);
    ObjectNode run = recorder.build(Instant.parse("2026-11-29T00:00:0" + index + "Z"), Instant.parse("2026-11-29T00:01:0" + index + "Z"), environment);
    return new ForkMerge.ForkRun(new RunResult(run, recorder.warnings(), "log of fork " + index), iterationNs);
  }

  @Test
  void mergesTheForksAsOneLongerRunAndKeepsEachForksFigures() throws Exception {
    ForkMerge.ForkRun first = fork(1, 100, 10, 1, 8, 12, 2, new double[] {9, 11}, "reached");
    ForkMerge.ForkRun second = fork(2, 300, 14, 2, 9, 20, 4, new double[] {13, 15}, "not reached");
    RunResult merged = ForkMerge.merge(List.of(first, second), "op_time");
    ObjectNode run = merged.run();

    JsonNode time = HarnessTest.metric(run, "op_time");
    JsonNode summary = time.get("summary");
    assertEquals(400, summary.get("n").asLong());
    assertEquals(13.0, summary.get("mean").asDouble(), 1e-9, "the operations' mean: all measured time over all operations");
    // pooled: within-fork squares (99·1² + 299·2²) plus between-fork (100·3² + 300·1²), over n − 1
    assertEquals(Math.sqrt((99 + 1196 + 900 + 300) / 399.0), summary.get("sd").asDouble(), 1e-9);
    assertEquals(8, summary.get("min").asDouble());
    assertEquals(20, summary.get("max").asDouble());
    assertEquals(400, HarnessTest.decode(time.get("histogram").asText()).getTotalCount(), "the histograms added");
    assertEquals(Measurement.PS_PER_NS, time.get("histogramScale").asDouble());

    List<Double> throughput = Harness.MAPPER.convertValue(HarnessTest.metric(run, Harness.THROUGHPUT).get("samples"), Harness.MAPPER.getTypeFactory().constructCollectionType(List.class, Double.class));
    assertEquals(List.of(1e9 / 9, 1e9 / 11, 1e9 / 13, 1e9 / 15), throughput, "one sample per measured iteration of every fork");

    JsonNode gc = HarnessTest.metric(run, Harness.GC_COUNT).get("summary");
    assertEquals(2, gc.get("n").asLong(), "a figure a fork records once: one value per fork");
    assertEquals(3, gc.get("mean").asDouble(), 1e-9);
    assertEquals(Math.sqrt(2), gc.get("sd").asDouble(), 1e-9);
    assertEquals(2, gc.get("min").asDouble());
    assertEquals(4, gc.get("max").asDouble());
    assertEquals(15, HarnessTest.metric(run, "ratio").get("value").asDouble(), 1e-9, "a value: the forks' mean");
    JsonNode series = HarnessTest.metric(run, Harness.CPU_PERCENT).get("timeSeries");
    assertEquals("2026-11-29T00:00:01Z", series.get("startedAt").asText(), "the first fork's series");
    assertEquals(91, series.get("values").get(0).asDouble());

    assertEquals("2026-11-29T00:00:01Z", run.get("startedAt").asText());
    assertEquals("2026-11-29T00:01:02Z", run.get("finishedAt").asText());
    JsonNode harness = run.get("environment").get("harness");
    assertEquals(2, harness.get("forks").asInt());
    assertEquals(2, harness.get("forkRuns").size());
    assertEquals(10, harness.get("forkRuns").get(0).get("operationTime").asDouble(), 1e-9);
    assertEquals(14, harness.get("forkRuns").get(1).get("operationTime").asDouble(), 1e-9);
    assertEquals("not reached", harness.get("forkRuns").get(1).get("warmup").get("steadyState").asText());
    assertEquals(8, harness.get("forkRuns").get(1).get("batchSize").asInt());
    // the forks' means 10 and 14: sd 2.83 of a mean of 12
    assertEquals(23.57, harness.get("forkSpreadPercent").asDouble(), 0.005);
    assertEquals(Math.round(SteadyState.cv(new double[] {9, 11, 13, 15}) * 10000) / 100.0, harness.get("measuredCvPercent").asDouble(), 1e-9, "over every fork's measured iterations");
    assertEquals(13, harness.get("warmup").get("iterations").asInt(), "the forks' warm-up iterations, all told");
    assertEquals(13000, harness.get("warmup").get("timeMs").asLong());
    assertEquals("not reached", harness.get("warmup").get("steadyState").asText(), "not reached when one fork did not reach it");
    assertFalse(harness.has("batchSize"), "each fork chose its own: in forkRuns");

    // The forks' warnings differ only in a figure: one line, each fork's figure in turn (ForkWarningsTest).
    assertEquals(List.of("forks 1 and 2 of 2: warning of fork 1/2"), merged.warnings());
    assertEquals(Harness.MAPPER.valueToTree(merged.warnings()), run.get("environment").get("warnings"));
    assertTrue(merged.logTail().contains("log of fork 1") && merged.logTail().contains("log of fork 2"), merged.logTail());
  }

  @Test
  void oneForkIsItsOwnRun() {
    ForkMerge.ForkRun only = fork(1, 100, 10, 1, 8, 12, 2, new double[] {9, 11}, "reached");
    assertSame(only.result(), ForkMerge.merge(List.of(only), "op_time"));
  }

  @Test
  void theForksWarmUpIsReachedOnlyWhenEveryForkReachedIt() {
    assertEquals("reached", ForkMerge.steadyState(List.of("reached", "reached")));
    assertEquals("not reached", ForkMerge.steadyState(List.of("reached", "not reached")));
    assertEquals("not tested", ForkMerge.steadyState(List.of("not tested", "not tested")));
  }
}
