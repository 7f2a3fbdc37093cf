package dev.versus.agent.run;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.versus.agent.api.Job;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Keeps, of a run document's metrics, those the job asks for (the server refuses a metric its
 * experiment does not have), each in the unit the experiment uses when both units are of one
 * family (µs → ms, B → KiB), like the reference agent's run-metrics.ts. A job that lists none of
 * what the run recorded cannot be stored, and says why.
 */
public final class RunMetrics {
  private static final Map<String, Map<String, Double>> FAMILIES = Map.of(
      "time", Map.of("ns", 1e-9, "us", 1e-6, "µs", 1e-6, "ms", 1e-3, "s", 1.0),
      "bytes", Map.of("B", 1.0, "KB", 1e3, "kB", 1e3, "KiB", 1024.0, "MB", 1e6, "MiB", 1048576.0, "GB", 1e9, "GiB", 1073741824.0));

  private RunMetrics() {}

  /** The metrics to send and the job's metrics the run did not record. */
  public record Mapped(ArrayNode metrics, List<String> missing) {}

  /** The factor from one unit to the other when both are of one family; null otherwise. */
  public static Double unitFactor(String from, String to) {
    if (from.equals(to)) return 1.0;
    for (Map<String, Double> family : FAMILIES.values()) {
      Double a = family.get(from);
      Double b = family.get(to);
      if (a != null && b != null) return a / b;
    }
    return null;
  }

  /** @throws IllegalArgumentException the run recorded none of the job's metrics (message says which it has) */
  public static Mapped select(List<Job.JobMetric> requested, JsonNode recorded) {
    Map<String, JsonNode> byKey = new LinkedHashMap<>();
    recorded.forEach(metric -> byKey.put(metric.path("key").asText(), metric));
    ArrayNode metrics = JsonNodeFactory.instance.arrayNode();
    List<String> missing = new ArrayList<>();
    if (requested.isEmpty()) {
      byKey.values().forEach(metrics::add);
      return new Mapped(metrics, missing);
    }
    for (Job.JobMetric wanted : requested) {
      JsonNode metric = byKey.get(wanted.key());
      if (metric == null) {
        missing.add(wanted.key());
        continue;
      }
      metrics.add(convert((ObjectNode) metric.deepCopy(), wanted));
    }
    if (metrics.isEmpty()) {
      List<String> offered = new ArrayList<>();
      byKey.values().forEach(metric -> offered.add(metric.path("key").asText() + " (" + metric.path("unit").asText("?") + ")"));
      throw new IllegalArgumentException("the workload reports none of the experiment's metrics (" + String.join(", ", missing) + "); it reports " + String.join(", ", offered));
    }
    return new Mapped(metrics, missing);
  }

  private static ObjectNode convert(ObjectNode metric, Job.JobMetric wanted) {
    if (wanted.direction() != null) metric.put("direction", wanted.direction());
    String unit = metric.path("unit").asText(null);
    if (unit == null || wanted.unit() == null) return metric;
    Double factor = unitFactor(unit, wanted.unit());
    // A unit of another family goes as recorded; the server then refuses it with a clear message.
    if (factor == null || factor == 1.0) return metric;
    double f = factor;
    metric.put("unit", wanted.unit());
    if (metric.path("samples").isArray()) metric.set("samples", scaled(metric.path("samples"), f));
    if (metric.path("samplesBase64").isTextual()) {
      ByteBuffer bytes = ByteBuffer.wrap(Base64.getDecoder().decode(metric.path("samplesBase64").asText())).order(ByteOrder.LITTLE_ENDIAN);
      ByteBuffer out = ByteBuffer.allocate(bytes.remaining()).order(ByteOrder.LITTLE_ENDIAN);
      while (bytes.remaining() >= 8) out.putDouble(bytes.getDouble() * f);
      metric.put("samplesBase64", Base64.getEncoder().encodeToString(out.array()));
    }
    if (metric.path("summary").isObject()) {
      ObjectNode summary = (ObjectNode) metric.path("summary");
      for (String field : List.of("mean", "sd", "min", "max", "p50", "p90", "p95", "p99", "p999", "sum")) {
        if (summary.path(field).isNumber()) summary.put(field, summary.path(field).asDouble() * f);
      }
    }
    if (metric.path("value").isNumber()) metric.put("value", metric.path("value").asDouble() * f);
    // The histogram recorded round(value × scale): the same counts in the new unit need scale / f.
    if (metric.path("histogramScale").isNumber()) metric.put("histogramScale", metric.path("histogramScale").asDouble() / f);
    if (metric.path("timeSeries").path("values").isArray()) {
      ((ObjectNode) metric.path("timeSeries")).set("values", scaled(metric.path("timeSeries").path("values"), f));
    }
    return metric;
  }

  private static ArrayNode scaled(JsonNode values, double factor) {
    ArrayNode out = JsonNodeFactory.instance.arrayNode();
    values.forEach(value -> out.add(value.asDouble() * factor));
    return out;
  }
}
