package dev.versus.harness;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.versus.workload.Direction;
import dev.versus.workload.MetricSpec;
import dev.versus.workload.SettingsException;
import dev.versus.workload.Workload;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs a workload as a benchmark and returns the run document: what the agent calls for a job.
 *
 * <pre>{@code
 * ObjectNode schema = Harness.settingsSchema(workload);        // advertise this at register
 * RunResult result = Harness.run(workload, job.settings, RunOptions.defaults()
 *     .withClasspath(agentJarAndPluginJars)
 *     .withCancellation(() -> cancelRequested)
 *     .withLog(line -> ...));
 * // POST /jobs/{id}/complete {"leaseToken": ..., "run": result.run()}
 * }</pre>
 *
 * <p>A {@link SettingsException} (bad settings: the field and what is wrong) fails the job without
 * retry; a {@link RunFailedException} (the workload threw, the fork died) fails it with its log
 * tail; {@link RunCancelledException} acknowledges a cancellation.
 */
public final class Harness {
  private Harness() {}

  static final ObjectMapper MAPPER = new ObjectMapper();

  /**
   * The workload's settings schema with the harness's common settings ({@link HarnessSettings})
   * added as top-level properties; a property the workload defines itself keeps its definition.
   * This is the schema to advertise and the one a job's settings are checked against.
   */
  public static ObjectNode settingsSchema(Workload workload) {
    ObjectNode schema;
    try {
      JsonNode parsed = MAPPER.readTree(workload.settingsSchema());
      if (!parsed.isObject()) throw new IllegalArgumentException("workload " + workload.name() + ": settingsSchema() is not a JSON object");
      schema = (ObjectNode) parsed;
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("workload " + workload.name() + ": settingsSchema() is not JSON: " + e.getOriginalMessage(), e);
    }
    if (!schema.has("type")) schema.put("type", "object");
    ObjectNode properties = schema.has("properties") ? (ObjectNode) schema.get("properties") : schema.putObject("properties");
    HarnessSettings.properties().fields().forEachRemaining(field -> {
      if (!properties.has(field.getKey())) properties.set(field.getKey(), field.getValue());
    });
    return schema;
  }

  /** Every metric a run of this workload can report: the harness's own, then the workload's. */
  public static List<MetricSpec> metrics(Workload workload) {
    List<MetricSpec> specs = new ArrayList<>(harnessMetrics(workload));
    specs.addAll(workload.metrics());
    return specs;
  }

  static List<MetricSpec> harnessMetrics(Workload workload) {
    MetricSpec time = workload.operationTime();
    OperationUnit.of(time.unit()); // fails early on a unit the harness cannot time in
    return List.of(
        time,
        new MetricSpec(THROUGHPUT, "ops/s", Direction.HIGHER_IS_BETTER, "Operations per second (all threads), one sample per measured iteration"),
        new MetricSpec(ALLOC_PER_OP, "B", Direction.LOWER_IS_BETTER, "Bytes allocated per operation by the measuring threads"),
        new MetricSpec(GC_COUNT, "count", Direction.LOWER_IS_BETTER, "Garbage collections during the measured iterations"),
        new MetricSpec(GC_TIME, "ms", Direction.LOWER_IS_BETTER, "Time the collectors report for those collections"),
        new MetricSpec(CPU_TIME, "ms", Direction.LOWER_IS_BETTER, "CPU time of the JVM process during the measured iterations (all its threads)"),
        new MetricSpec(CPU_PERCENT, "%", Direction.LOWER_IS_BETTER, "CPU time over wall time of the measured iterations; 100 is one core busy (with a per-second series)"),
        new MetricSpec(CPU_PERCENT_MAX, "%", Direction.LOWER_IS_BETTER, "The JVM's busiest whole second of the measured iterations, CPU %; 100 is one core busy", "max"),
        new MetricSpec(HEAP_PEAK, "B", Direction.LOWER_IS_BETTER, "Peak heap use during the measured iterations (sum of the heap pools' peaks)"),
        new MetricSpec(DATA_RATE, "MB/s", Direction.HIGHER_IS_BETTER, "Bytes processed per second (workloads that say how many bytes an operation processes)"));
  }

  public static final String THROUGHPUT = "throughput";
  public static final String ALLOC_PER_OP = "alloc_per_op";
  public static final String GC_COUNT = "gc_count";
  public static final String GC_TIME = "gc_time";
  public static final String CPU_TIME = "cpu_time";
  public static final String CPU_PERCENT = "cpu_percent";
  public static final String CPU_PERCENT_MAX = "cpu_percent_max";
  public static final String HEAP_PEAK = "heap_peak";
  public static final String DATA_RATE = "data_rate";

  /**
   * Runs the workload with these settings: checks them against {@link #settingsSchema} (then the
   * workload's prepare judges what a schema cannot), runs warm-up and measured iterations in
   * {@code forks} forked JVMs one after another, merged into one run (or once in this JVM, {@code
   * options.fork() == false}, whatever {@code forks} says) and returns the run document.
   */
  public static RunResult run(Workload workload, JsonNode settings, RunOptions options) throws SettingsException, RunFailedException {
    ObjectNode schema = settingsSchema(workload);
    SettingsCheck.check(schema, settings);
    if (options.fork()) return Fork.run(workload, settings, options, HarnessSettings.forks(settings, schema));
    return InProcess.run(workload, settings, options);
  }
}
