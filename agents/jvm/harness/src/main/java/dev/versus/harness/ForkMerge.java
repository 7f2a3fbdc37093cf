package dev.versus.harness;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * The runs of a job's forks as one run, as JMH reports its forks as one score: every metric is
 * merged as one longer run would have recorded it, and the run's environment keeps what each fork
 * did. Per metric:
 * <ul>
 *   <li>a summary: the pooled one — n summed, the n-weighted mean (for the operation's time: all
 *       measured time over all operations), the sd of every value of every fork (within-fork
 *       squares plus the forks' distances from the mean), min and max. A figure a fork records
 *       once (gc_count, cpu_time, heap_peak, a workload's constant) becomes one value per fork:
 *       the forks' mean with their spread;
 *   <li>a histogram: the forks' histograms added (the percentiles of every measured operation);
 *   <li>samples (throughput, one per iteration): concatenated;
 *   <li>a value: the forks' mean;
 *   <li>a time series (cpu_percent's, per second of a fork's measured window): the first fork's,
 *       since the forks' windows do not follow one another in time.
 * </ul>
 * The environment is the first fork's (the machine), with {@code harness.forks}, each fork's
 * warm-up, measured CV, batch size and mean time per operation in {@code harness.forkRuns}, the
 * spread of those means ({@code forkSpreadPercent}: sample sd / mean, in %), the warm-ups all told
 * in {@code warmup}, and {@code measuredCvPercent} over every fork's measured iterations. The
 * forks' warnings are the run's, named by the forks that gave them ({@link ForkWarnings}).
 */
final class ForkMerge {
  private ForkMerge() {}

  /** One fork's run, and its measured iterations' mean times per operation (ns), which its run does not list. */
  record ForkRun(RunResult result, double[] iterationNsPerOperation) {}

  /** The forks' runs (at least one) as one; {@code timeKey} is the operation's time metric. */
  static RunResult merge(List<ForkRun> forks, String timeKey) {
    if (forks.isEmpty()) throw new IllegalArgumentException("no fork to merge");
    if (forks.size() == 1) return forks.get(0).result();
    List<ObjectNode> runs = forks.stream().map(f -> f.result().run()).toList();
    ObjectNode first = runs.get(0);
    ObjectNode run = Harness.MAPPER.createObjectNode();
    run.put("startedAt", first.get("startedAt").asText());
    run.put("finishedAt", runs.get(runs.size() - 1).get("finishedAt").asText());

    List<String> warnings = ForkWarnings.merge(forks.stream().map(f -> f.result().warnings()).toList());
    StringBuilder log = new StringBuilder();
    for (int i = 0; i < forks.size(); i++) {
      if (log.length() > 0) log.append('\n');
      log.append(forks.get(i).result().logTail());
    }
    ObjectNode environment = first.get("environment").deepCopy();
    environment.remove("warnings");
    environment.set("harness", harness(forks, timeKey));
    if (!warnings.isEmpty()) environment.set("warnings", Harness.MAPPER.valueToTree(warnings));
    run.set("environment", environment);
    run.set("metrics", metrics(runs));
    // The merged log keeps the last lines, as one fork's would.
    String[] lines = log.toString().split("\n", -1);
    String tail = String.join("\n", java.util.Arrays.asList(lines).subList(Math.max(0, lines.length - RunRecorder.LOG_TAIL_LINES), lines.length));
    return new RunResult(run, warnings, tail);
  }

  private static ObjectNode harness(List<ForkRun> forks, String timeKey) {
    ObjectNode merged = forks.get(0).result().run().get("environment").get("harness").deepCopy();
    merged.remove("batchSize");
    merged.put("forks", forks.size());
    ArrayNode perFork = merged.putArray("forkRuns");
    double[] means = new double[forks.size()];
    List<Double> iterations = new ArrayList<>();
    List<String> steady = new ArrayList<>();
    long warmupIterations = 0;
    long warmupMs = 0;
    for (int i = 0; i < forks.size(); i++) {
      ObjectNode run = forks.get(i).result().run();
      JsonNode own = run.get("environment").get("harness");
      ObjectNode entry = perFork.addObject();
      JsonNode time = metric(run, timeKey);
      means[i] = time == null ? Double.NaN : time.path("summary").path("mean").asDouble(Double.NaN);
      if (!Double.isNaN(means[i])) entry.put("operationTime", means[i]);
      entry.set("warmup", own.get("warmup"));
      entry.set("measuredCvPercent", own.get("measuredCvPercent"));
      entry.set("batchSize", own.get("batchSize"));
      warmupIterations += own.path("warmup").path("iterations").asLong();
      warmupMs += own.path("warmup").path("timeMs").asLong();
      steady.add(own.path("warmup").path("steadyState").asText());
      for (double ns : forks.get(i).iterationNsPerOperation()) iterations.add(ns);
    }
    ObjectNode warmup = merged.putObject("warmup");
    warmup.put("iterations", warmupIterations);
    warmup.put("timeMs", warmupMs);
    warmup.put("steadyState", steadyState(steady));
    JsonNode test = forks.get(0).result().run().get("environment").get("harness").path("warmup").get("test");
    if (test != null) warmup.set("test", test);
    merged.put("measuredCvPercent", round(SteadyState.cv(iterations.stream().mapToDouble(Double::doubleValue).toArray()) * 100));
    if (java.util.Arrays.stream(means).noneMatch(Double::isNaN)) merged.put("forkSpreadPercent", round(SteadyState.cv(means) * 100));
    return merged;
  }

  /** The forks' warm-ups in one word: reached when every fork reached steady state, not reached when one did not. */
  static String steadyState(List<String> forks) {
    if (forks.contains("not reached")) return "not reached";
    if (forks.stream().allMatch("reached"::equals)) return "reached";
    return "not tested";
  }

  private static ArrayNode metrics(List<ObjectNode> runs) {
    // Every key in the order the forks first recorded it.
    Map<String, List<JsonNode>> byKey = new LinkedHashMap<>();
    for (ObjectNode run : runs) {
      for (JsonNode metric : run.get("metrics")) byKey.computeIfAbsent(metric.get("key").asText(), k -> new ArrayList<>()).add(metric);
    }
    ArrayNode merged = Harness.MAPPER.createArrayNode();
    for (List<JsonNode> metrics : byKey.values()) merged.add(metric(metrics));
    return merged;
  }

  private static ObjectNode metric(List<JsonNode> forks) {
    ObjectNode merged = forks.get(0).deepCopy();
    List<JsonNode> summaries = forks.stream().map(m -> m.get("summary")).filter(s -> s != null).toList();
    if (!summaries.isEmpty()) merged.set("summary", pooled(summaries));
    if (merged.has("histogram")) {
      Histogram sum = Measurement.newHistogram();
      for (JsonNode m : forks) {
        if (m.has("histogram")) sum.add(decode(m.get("histogram").asText()));
      }
      merged.put("histogram", RunRecorder.encode(sum));
    }
    List<Double> samples = new ArrayList<>();
    for (JsonNode m : forks) samples.addAll(samples(m));
    merged.remove("samples");
    merged.remove("samplesBase64");
    if (!samples.isEmpty()) RunRecorder.putSamples(merged, samples);
    List<JsonNode> values = forks.stream().map(m -> m.get("value")).filter(v -> v != null).toList();
    if (!values.isEmpty()) merged.put("value", values.stream().mapToDouble(JsonNode::asDouble).average().getAsDouble());
    return merged;
  }

  /** Summaries of disjoint sets of values as the summary of their union. */
  static ObjectNode pooled(List<JsonNode> summaries) {
    long n = 0;
    double sum = 0;
    for (JsonNode s : summaries) {
      n += s.get("n").asLong();
      sum += s.get("n").asLong() * s.get("mean").asDouble();
    }
    double mean = sum / n;
    ObjectNode pooled = Harness.MAPPER.createObjectNode();
    pooled.put("n", n);
    pooled.put("mean", mean);
    if (summaries.stream().allMatch(s -> s.has("sd")) && n > 1) {
      double squares = 0;
      for (JsonNode s : summaries) {
        long k = s.get("n").asLong();
        double sd = s.get("sd").asDouble();
        double d = s.get("mean").asDouble() - mean;
        squares += (k - 1) * sd * sd + k * d * d;
      }
      pooled.put("sd", Math.sqrt(squares / (n - 1)));
    }
    if (summaries.stream().allMatch(s -> s.has("min"))) pooled.put("min", summaries.stream().mapToDouble(s -> s.get("min").asDouble()).min().getAsDouble());
    if (summaries.stream().allMatch(s -> s.has("max"))) pooled.put("max", summaries.stream().mapToDouble(s -> s.get("max").asDouble()).max().getAsDouble());
    return pooled;
  }

  private static List<Double> samples(JsonNode metric) {
    List<Double> values = new ArrayList<>();
    metric.path("samples").forEach(v -> values.add(v.asDouble()));
    if (metric.has("samplesBase64")) {
      ByteBuffer bytes = ByteBuffer.wrap(Base64.getDecoder().decode(metric.get("samplesBase64").asText())).order(ByteOrder.LITTLE_ENDIAN);
      while (bytes.remaining() >= 8) values.add(bytes.getDouble());
    }
    return values;
  }

  private static Histogram decode(String base64) {
    try {
      return Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(Base64.getDecoder().decode(base64)), 0);
    } catch (java.util.zip.DataFormatException e) {
      throw new IllegalStateException("a fork's histogram does not decode: " + e.getMessage(), e);
    }
  }

  private static JsonNode metric(ObjectNode run, String key) {
    for (JsonNode m : run.get("metrics")) if (m.get("key").asText().equals(key)) return m;
    return null;
  }

  private static double round(double value) {
    return Math.round(value * 100) / 100.0;
  }
}
