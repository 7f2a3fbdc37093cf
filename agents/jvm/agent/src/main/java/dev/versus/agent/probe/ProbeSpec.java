package dev.versus.agent.probe;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * One probe of a claimed job ({@code job.probes[i]}, the variant's probes as the server checked
 * them): what to sample, how often, and whether a gap fails the job. Read again here so a job
 * this agent cannot honour fails with a message naming the field rather than halfway through.
 *
 * @param match for a process probe: exactly one of pid, processName, pattern is set
 */
public record ProbeSpec(
    String name,
    String kind,
    double intervalSeconds,
    boolean required,
    String url,
    List<String> presets,
    List<CustomSeries> series,
    Long pid,
    String processName,
    String pattern) {

  public static final String PROMETHEUS = "prometheus";
  public static final String PROCESS = "process";
  private static final Pattern NAME = Pattern.compile("^[a-z0-9][a-z0-9_-]{0,39}$");
  private static final Pattern KEY = Pattern.compile("^[a-z0-9_]{1,40}$");
  private static final List<String> PRESETS = List.of("process", "jvm", "go", "node");
  private static final List<String> AGGREGATIONS = List.of("rate", "delta", "mean", "max", "min", "last");
  private static final List<String> DIRECTIONS = List.of("lower_is_better", "higher_is_better");

  /** A custom series of a Prometheus probe: the samples of one metric (labels matching) summed. */
  public record CustomSeries(String key, String metric, Map<String, String> labels, String aggregation, String unit, String direction) {}

  /** Reads {@code job.probes}; a missing or null list is no probes. */
  public static List<ProbeSpec> parseAll(JsonNode probes) {
    if (probes == null || probes.isMissingNode() || probes.isNull()) return List.of();
    if (!probes.isArray()) throw new IllegalArgumentException("job.probes: expected an array");
    List<ProbeSpec> specs = new ArrayList<>();
    List<String> names = new ArrayList<>();
    for (int i = 0; i < probes.size(); i++) {
      ProbeSpec spec = parse(probes.get(i), "job.probes." + i);
      if (names.contains(spec.name())) throw new IllegalArgumentException("job.probes." + i + ".name: \"" + spec.name() + "\" is used by another probe; names are unique");
      names.add(spec.name());
      specs.add(spec);
    }
    return List.copyOf(specs);
  }

  static ProbeSpec parse(JsonNode probe, String at) {
    if (!probe.isObject()) throw new IllegalArgumentException(at + ": expected an object");
    String name = text(probe, "name", at);
    if (!NAME.matcher(name).matches()) throw new IllegalArgumentException(at + ".name: \"" + name + "\" is not 1-40 of a-z, 0-9, _ and - starting with a letter or digit");
    double interval = 1;
    JsonNode intervalNode = probe.path("intervalSeconds");
    if (!intervalNode.isMissingNode() && !intervalNode.isNull()) {
      if (!intervalNode.isNumber() || intervalNode.asDouble() < 0.1 || intervalNode.asDouble() > 60) throw new IllegalArgumentException(at + ".intervalSeconds: expected a number from 0.1 to 60, got " + intervalNode);
      interval = intervalNode.asDouble();
    }
    boolean required = probe.path("required").asBoolean(false);
    String kind = text(probe, "kind", at);
    switch (kind) {
      case PROMETHEUS -> {
        String url = text(probe, "url", at);
        URI uri;
        try {
          uri = URI.create(url);
        } catch (IllegalArgumentException bad) {
          throw new IllegalArgumentException(at + ".url: \"" + url + "\" is not a URL");
        }
        if (uri.getScheme() == null || !List.of("http", "https").contains(uri.getScheme()) || uri.getHost() == null) throw new IllegalArgumentException(at + ".url: \"" + url + "\" is not an http(s) URL");
        List<String> presets = new ArrayList<>();
        JsonNode presetList = probe.path("presets");
        if (presetList.isMissingNode() || presetList.isNull()) {
          presets.add("process");
        } else {
          for (JsonNode preset : presetList) {
            if (!PRESETS.contains(preset.asText())) throw new IllegalArgumentException(at + ".presets: unknown preset " + preset + " (valid: " + String.join(", ", PRESETS) + ")");
            if (presets.contains(preset.asText())) throw new IllegalArgumentException(at + ".presets: " + preset + " is listed twice");
            presets.add(preset.asText());
          }
        }
        List<CustomSeries> series = new ArrayList<>();
        JsonNode seriesList = probe.path("series");
        for (int i = 0; i < seriesList.size(); i++) series.add(custom(seriesList.get(i), at + ".series." + i));
        return new ProbeSpec(name, kind, interval, required, url, List.copyOf(presets), List.copyOf(series), null, null, null);
      }
      case PROCESS -> {
        JsonNode match = probe.path("match");
        List<String> given = new ArrayList<>();
        match.fieldNames().forEachRemaining(given::add);
        if (!match.isObject() || given.size() != 1 || !List.of("pid", "name", "pattern").contains(given.get(0))) {
          throw new IllegalArgumentException(at + ".match: expected exactly one of {\"pid\": 1234}, {\"name\": \"java\"}, {\"pattern\": \"regex\"}, got " + match);
        }
        Long pid = null;
        String processName = null;
        String pattern = null;
        switch (given.get(0)) {
          case "pid" -> {
            if (!match.get("pid").canConvertToLong() || match.get("pid").asLong() < 1) throw new IllegalArgumentException(at + ".match.pid: expected a positive integer, got " + match.get("pid"));
            pid = match.get("pid").asLong();
          }
          case "name" -> processName = text(match, "name", at + ".match");
          default -> {
            pattern = text(match, "pattern", at + ".match");
            try {
              Pattern.compile(pattern);
            } catch (PatternSyntaxException bad) {
              throw new IllegalArgumentException(at + ".match.pattern: not a regular expression: " + bad.getDescription());
            }
          }
        }
        return new ProbeSpec(name, kind, interval, required, null, List.of(), List.of(), pid, processName, pattern);
      }
      default -> throw new IllegalArgumentException(at + ".kind: unknown kind \"" + kind + "\" (valid: prometheus, process)");
    }
  }

  private static CustomSeries custom(JsonNode series, String at) {
    String key = text(series, "key", at);
    if (!KEY.matcher(key).matches()) throw new IllegalArgumentException(at + ".key: \"" + key + "\" is not 1-40 of a-z, 0-9 and _");
    String metric = text(series, "metric", at);
    Map<String, String> labels = new LinkedHashMap<>();
    series.path("labels").fields().forEachRemaining(label -> labels.put(label.getKey(), label.getValue().asText()));
    String aggregation = text(series, "aggregation", at);
    if (!AGGREGATIONS.contains(aggregation)) throw new IllegalArgumentException(at + ".aggregation: \"" + aggregation + "\" (valid: " + String.join(", ", AGGREGATIONS) + ")");
    String direction = text(series, "direction", at);
    if (!DIRECTIONS.contains(direction)) throw new IllegalArgumentException(at + ".direction: \"" + direction + "\" (valid: " + String.join(", ", DIRECTIONS) + ")");
    return new CustomSeries(key, metric, Map.copyOf(labels), aggregation, text(series, "unit", at), direction);
  }

  private static String text(JsonNode node, String field, String at) {
    JsonNode value = node.path(field);
    if (!value.isTextual() || value.asText().isEmpty()) throw new IllegalArgumentException(at + "." + field + ": expected a non-empty string");
    return value.asText();
  }
}
