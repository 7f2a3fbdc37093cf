package dev.versus.workload;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * One kind of work (e.g. "gzip"), found with {@link java.util.ServiceLoader}: list the class in
 * {@code META-INF/services/dev.versus.workload.Workload} of your jar. A workload never sees the
 * agent protocol: the harness calls {@link Benchmark#operation} in warm-up and measured
 * iterations and measures time, allocation, GC and CPU around it; the agent never looks inside
 * the settings (the settings schema checks them before {@link #prepare} runs).
 */
public interface Workload {
  /** Short name, unique among the agent's workloads; jobs ask for it (e.g. "json"). */
  String name();

  String description();

  /**
   * JSON Schema (draft 2020-12) of the settings object, with defaults and descriptions: the
   * dashboard draws its form from it and the harness checks a job's settings against it.
   */
  String settingsSchema();

  /** The metrics this workload reports beyond the harness's own (time, allocation, GC, CPU). */
  default List<MetricSpec> metrics() {
    return List.of();
  }

  /**
   * The metric the harness records each operation's time under: {@code op_time} in ns unless the
   * workload names its own (gzip reports {@code compress_time} in us, as the reference agent
   * does, so one experiment runs on either agent). The unit is one of ns, us, ms, s.
   */
  default MetricSpec operationTime() {
    return new MetricSpec("op_time", "ns", Direction.LOWER_IS_BETTER, "Time per operation");
  }

  /**
   * Makes the benchmark for these settings (a JSON object that passed the schema; absent fields
   * take their defaults here). A value the schema cannot judge (a file that does not exist, an
   * unknown provider) is a {@link SettingsException} naming the field.
   */
  Benchmark prepare(JsonNode settings) throws SettingsException;
}
