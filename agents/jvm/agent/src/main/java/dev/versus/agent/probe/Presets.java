package dev.versus.agent.probe;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * The well-known series a Prometheus probe's presets read, and a custom series's mapping; the
 * metric keys, units, directions and aggregations are the protocol's (docs/agent-protocol.md,
 * the same in every agent and in the server's probe metric catalog).
 */
public final class Presets {
  private Presets() {}

  /** Every series of these presets and custom series, in the order their metrics are reported. */
  public static List<Named> of(List<String> presets, List<ProbeSpec.CustomSeries> custom) {
    List<Named> all = new ArrayList<>();
    for (String preset : presets) {
      for (Series series : preset(preset)) all.add(new Named("preset " + preset, series));
    }
    for (ProbeSpec.CustomSeries series : custom) all.add(new Named("series " + series.key(), custom(series)));
    return all;
  }

  /** A series and what it came from ("preset jvm", "series queue_depth"), for messages. */
  public record Named(String origin, Series series) {}

  static List<Series> preset(String preset) {
    return switch (preset) {
      case "process" -> List.of(
          Series.counter("process_cpu_seconds_total", true, one("process_cpu_seconds_total", false), Presets::cpuPercent,
              Series.lower("cpu_percent", "%", "mean"), Series.lower("cpu_percent_max", "%", "max"))
              // Micrometer (Spring Boot Actuator) counts the JVM's CPU time in nanoseconds.
              .orElse(Series.counter("process_cpu_time_ns_total", true, scaled("process_cpu_time_ns_total", 1e-9), Presets::cpuPercent,
                  Series.lower("cpu_percent", "%", "mean"), Series.lower("cpu_percent_max", "%", "max"))),
          // Micrometer exports no resident memory: the probe still reports CPU, and the run says why rss is missing.
          Series.gauge("process_resident_memory_bytes", one("process_resident_memory_bytes", false),
              Series.lower("rss", "B", "mean"), Series.lower("rss_peak", "B", "max"))
              .droppable("a process probe reads its RSS from /proc on the target's host"));
      case "jvm" -> List.of(
          Series.gauge("jvm_memory_used_bytes{area=\"heap\"}", exposition -> single(exposition.sum("jvm_memory_used_bytes", Map.of("area", "heap")), false),
              Series.lower("heap_used", "B", "mean"), Series.lower("heap_used_peak", "B", "max")),
          Series.counter("jvm_gc_pause_seconds_count", false, one("jvm_gc_pause_seconds_count", true), Presets::increase, Series.lower("gc_count", "count", "sum")),
          Series.counter("jvm_gc_pause_seconds_sum", false, one("jvm_gc_pause_seconds_sum", true), Presets::increaseMs, Series.lower("gc_time", "ms", "sum")),
          Series.gauge("jvm_threads_live_threads", one("jvm_threads_live_threads", false), Series.lower("threads_live", "count", "mean")));
      case "go" -> List.of(
          Series.gauge("go_memstats_heap_inuse_bytes", one("go_memstats_heap_inuse_bytes", false),
              Series.lower("heap_inuse", "B", "mean"), Series.lower("heap_inuse_peak", "B", "max")),
          // Absent is none yet, read as 0, as the Go agent does.
          Series.counter("go_gc_duration_seconds_count", false, one("go_gc_duration_seconds_count", true), Presets::increase, Series.lower("gc_count", "count", "sum")),
          Series.counter("go_gc_duration_seconds_sum", false, one("go_gc_duration_seconds_sum", true), Presets::increaseMs, Series.lower("gc_time", "ms", "sum")));
      case "node" -> List.of(
          Series.counter("node_cpu_seconds_total", true, Presets::idleAndAll, Presets::hostCpuPercent,
              Series.lower("host_cpu_percent", "%", "mean"), Series.lower("host_cpu_percent_max", "%", "max")),
          Series.gauge("node_memory_MemTotal_bytes and node_memory_MemAvailable_bytes", Presets::memoryUsed,
              Series.lower("host_memory_used", "B", "mean"), Series.lower("host_memory_used_peak", "B", "max")));
      default -> throw new IllegalArgumentException("unknown preset " + preset);
    };
  }

  static Series custom(ProbeSpec.CustomSeries spec) {
    String source = spec.metric() + labels(spec.labels());
    Series.Reader reader = exposition -> single(exposition.sum(spec.metric(), spec.labels()), false);
    return switch (spec.aggregation()) {
      // A rate's run figure is the mean of the interval rates; a delta's the sum of the increases.
      case "rate" -> Series.counter(source, true, reader, (before, after, seconds) -> (after[0] - before[0]) / seconds,
          new Series.Output(spec.key(), spec.unit(), spec.direction(), "mean"));
      case "delta" -> Series.counter(source, true, reader, Presets::increase, new Series.Output(spec.key(), spec.unit(), spec.direction(), "sum"));
      default -> Series.gauge(source, reader, new Series.Output(spec.key(), spec.unit(), spec.direction(), spec.aggregation()));
    };
  }

  private static String labels(Map<String, String> labels) {
    if (labels.isEmpty()) return "";
    List<String> pairs = new ArrayList<>();
    labels.forEach((name, value) -> pairs.add(name + "=\"" + value + "\""));
    pairs.sort(null);
    return "{" + String.join(",", pairs) + "}";
  }

  /** The sum of a metric's samples times factor (absent: null). */
  static Series.Reader scaled(String name, double factor) {
    return exposition -> {
      OptionalDouble value = exposition.sum(name);
      return value.isPresent() ? new double[] {value.getAsDouble() * factor} : null;
    };
  }

  /** The sum of a metric's samples (absent: null, or 0 when absentIsZero). */
  static Series.Reader one(String name, boolean absentIsZero) {
    return exposition -> single(exposition.sum(name), absentIsZero);
  }

  private static double[] single(OptionalDouble value, boolean absentIsZero) {
    if (value.isPresent()) return new double[] {value.getAsDouble()};
    return absentIsZero ? new double[] {0} : null;
  }

  /** CPU seconds used in the interval over its seconds, × 100: 100 is one core busy. */
  static double cpuPercent(double[] before, double[] after, double seconds) {
    return (after[0] - before[0]) / seconds * 100;
  }

  static double increase(double[] before, double[] after, double seconds) {
    return after[0] - before[0];
  }

  static double increaseMs(double[] before, double[] after, double seconds) {
    return (after[0] - before[0]) * 1000;
  }

  private static double[] idleAndAll(Exposition exposition) {
    OptionalDouble idle = exposition.sum("node_cpu_seconds_total", Map.of("mode", "idle"));
    OptionalDouble all = exposition.sum("node_cpu_seconds_total");
    return idle.isPresent() && all.isPresent() ? new double[] {idle.getAsDouble(), all.getAsDouble()} : null;
  }

  /** 100 × (1 − Δidle ÷ Δall modes) over all CPUs: 100 is the whole host busy. */
  static double hostCpuPercent(double[] before, double[] after, double seconds) {
    double all = after[1] - before[1];
    return all <= 0 ? Double.NaN : 100 * (1 - (after[0] - before[0]) / all);
  }

  private static double[] memoryUsed(Exposition exposition) {
    OptionalDouble total = exposition.sum("node_memory_MemTotal_bytes");
    OptionalDouble available = exposition.sum("node_memory_MemAvailable_bytes");
    return total.isPresent() && available.isPresent() ? new double[] {total.getAsDouble() - available.getAsDouble()} : null;
  }
}
