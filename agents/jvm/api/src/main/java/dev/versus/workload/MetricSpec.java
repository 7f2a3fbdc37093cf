package dev.versus.workload;

/**
 * A metric a workload reports: its key, unit (as the server names units: "ns", "B", "ms" …),
 * direction, description, and how one run is summarised when it is compared (the server's names:
 * mean, median, p90, p95, p99, min, max, sum, rate, last). The agent advertises every one at
 * register and heartbeat, so the dashboard offers them when a user picks the workload.
 */
public record MetricSpec(String key, String unit, Direction direction, String description, String aggregation) {
  /** The aggregation a spec gets when it names none. */
  public static final String DEFAULT_AGGREGATION = "mean";

  public MetricSpec {
    if (aggregation == null || aggregation.isEmpty()) aggregation = DEFAULT_AGGREGATION;
  }

  /** A metric compared by each run's mean. */
  public MetricSpec(String key, String unit, Direction direction, String description) {
    this(key, unit, direction, description, DEFAULT_AGGREGATION);
  }
}
