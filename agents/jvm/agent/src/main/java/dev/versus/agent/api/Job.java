package dev.versus.agent.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.util.ArrayList;
import java.util.List;

/**
 * A claimed job, as {@code POST /jobs/claim} answers it. Fields this agent does not know are
 * ignored, so a newer server can add some; a missing field it needs is a clear error naming it.
 */
public record Job(
    String id,
    String leaseToken,
    int leaseSeconds,
    int attempt,
    String experimentSlug,
    String variantName,
    int repetition,
    boolean warmup,
    String workloadName,
    JsonNode settings,
    List<JobMetric> metrics,
    JsonNode probes) {

  /** A metric the experiment asks for; unit and direction may be absent. */
  public record JobMetric(String key, String unit, String direction) {}

  /** Reads {@code job}; throws IllegalArgumentException naming the first field it cannot read. */
  public static Job parse(JsonNode job) {
    JsonNode settings = job.path("workload").path("settings");
    if (settings.isMissingNode() || settings.isNull()) settings = JsonNodeFactory.instance.objectNode();
    if (!settings.isObject()) throw new IllegalArgumentException("job.workload.settings: expected an object");
    List<JobMetric> metrics = new ArrayList<>();
    JsonNode list = job.path("metrics");
    for (int i = 0; i < list.size(); i++) {
      JsonNode metric = list.get(i);
      metrics.add(new JobMetric(text(metric, "key", "job.metrics." + i + ".key"), optionalText(metric, "unit"), optionalText(metric, "direction")));
    }
    return new Job(
        text(job, "id", "job.id"),
        text(job, "leaseToken", "job.leaseToken"),
        job.path("leaseSeconds").isNumber() && job.path("leaseSeconds").asDouble() > 0 ? (int) Math.ceil(job.path("leaseSeconds").asDouble()) : 60,
        job.path("attempt").asInt(1),
        text(job.path("experiment"), "slug", "job.experiment.slug"),
        text(job.path("variant"), "name", "job.variant.name"),
        integer(job, "repetition", "job.repetition"),
        job.path("warmup").asBoolean(false),
        text(job.path("workload"), "name", "job.workload.name"),
        settings,
        List.copyOf(metrics),
        // The variant's probes (docs/agent-protocol.md); read and checked when the job runs.
        probes(job));
  }

  private static JsonNode probes(JsonNode job) {
    JsonNode probes = job.path("probes");
    if (probes.isMissingNode() || probes.isNull()) return JsonNodeFactory.instance.arrayNode();
    if (!probes.isArray()) throw new IllegalArgumentException("job.probes: expected an array");
    return probes;
  }

  private static String text(JsonNode node, String field, String path) {
    JsonNode value = node.path(field);
    if (!value.isTextual()) throw new IllegalArgumentException(path + ": expected a string");
    return value.asText();
  }

  private static String optionalText(JsonNode node, String field) {
    JsonNode value = node.path(field);
    return value.isTextual() ? value.asText() : null;
  }

  private static int integer(JsonNode node, String field, String path) {
    JsonNode value = node.path(field);
    if (!value.canConvertToInt() || !value.isIntegralNumber()) throw new IllegalArgumentException(path + ": expected an integer");
    return value.asInt();
  }
}
