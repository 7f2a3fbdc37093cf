package dev.versus.harness;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The settings every JVM workload takes, beside its own, at the top level of a job's settings (so
 * the dashboard's form shows them as plain fields). Close to JMH's: warm-up iterations, then
 * measured iterations, each lasting a time or a number of operations. The defaults (1 s iterations,
 * warm-up until steady, 10 measured) are the ones bench/jvm-harness.ts compares with JMH's own.
 *
 * @param warmupIterations unmeasured iterations first (JIT compilation, caches, batch size); with
 *     steadyState, the fewest
 * @param warmupTimeMs length of a warm-up iteration
 * @param iterations measured iterations
 * @param iterationTimeMs length of a measured iteration
 * @param operationsPerIteration when positive, every iteration (warm-up too) is this many
 *     operations (per thread) instead of a time
 * @param batchSize operations timed together, 0 = chosen during warm-up (see {@link Measurement})
 * @param threads threads calling the operation at once
 * @param jvmArgs extra arguments of the forked JVM (e.g. -XX:+UseParallelGC)
 * @param steadyState warm-up goes on until the iteration times stop trending (see {@link Warmup})
 * @param maxWarmupTimeMs with steadyState, the longest warm-up before measuring anyway
 */
public record HarnessSettings(
    int warmupIterations,
    long warmupTimeMs,
    int iterations,
    long iterationTimeMs,
    long operationsPerIteration,
    int batchSize,
    int threads,
    List<String> jvmArgs,
    boolean steadyState,
    long maxWarmupTimeMs) {

  public HarnessSettings {
    jvmArgs = List.copyOf(jvmArgs);
  }

  /** The JSON Schema properties of these settings, with their defaults (draft 2020-12). */
  static final String PROPERTIES =
      """
      {
        "warmupIterations": {"type": "integer", "minimum": 0, "maximum": 1000, "default": 5,
          "description": "Unmeasured iterations first: the JIT compiles the hot code, and the harness picks the batch size; with steadyState, the fewest (0: no warm-up)"},
        "steadyState": {"type": "boolean", "default": true,
          "description": "Warm up until the iteration times stop trending (no drift over 2% beyond the noise in the last 5 iterations), at most maxWarmupTime; false: exactly warmupIterations"},
        "maxWarmupTime": {"type": "integer", "x-unit": "ms", "minimum": 1, "maximum": 3600000, "default": 30000,
          "description": "With steadyState, the longest warm-up, in milliseconds: a run still trending then is measured with a warning"},
        "warmupTime": {"type": "integer", "x-unit": "ms", "minimum": 1, "maximum": 600000, "default": 1000,
          "description": "Length of a warm-up iteration, in milliseconds"},
        "iterations": {"type": "integer", "minimum": 1, "maximum": 10000, "default": 10,
          "description": "Measured iterations"},
        "iterationTime": {"type": "integer", "x-unit": "ms", "minimum": 1, "maximum": 600000, "default": 1000,
          "description": "Length of a measured iteration, in milliseconds"},
        "operationsPerIteration": {"type": "integer", "minimum": 1, "maximum": 1000000000,
          "description": "Make every iteration this many operations (per thread) instead of a time"},
        "batchSize": {"type": "integer", "minimum": 1, "maximum": 1048576,
          "description": "Operations timed together (1: each alone); by default chosen during warm-up so a batch lasts about 20 µs"},
        "threads": {"type": "integer", "minimum": 1, "maximum": 1024, "default": 1,
          "description": "Threads calling the operation at once"},
        "forks": {"type": "integer", "minimum": 1, "maximum": 20, "default": 3,
          "description": "Fresh JVMs the run measures in, one after another, as JMH's forks: each warms up and measures on its own, and the run's figures are over all of them, with the spread of the forks' means"},
        "jvmArgs": {"type": "array", "items": {"type": "string"}, "default": [],
          "description": "Extra arguments of the forked JVM, e.g. [\\"-XX:+UseParallelGC\\", \\"-Xmx1g\\"]"}
      }
      """;

  private static final ObjectNode PROPERTY_NODES = parse();

  private static ObjectNode parse() {
    try {
      return (ObjectNode) new ObjectMapper().readTree(PROPERTIES);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The common settings' schema properties (a copy). */
  static ObjectNode properties() {
    return PROPERTY_NODES.deepCopy();
  }

  /** Names of the common settings. */
  static List<String> names() {
    List<String> names = new ArrayList<>();
    PROPERTY_NODES.fieldNames().forEachRemaining(names::add);
    return names;
  }

  /** Reads the common settings from a job's settings (already checked against the schema). */
  static HarnessSettings from(JsonNode settings) {
    List<String> jvmArgs = new ArrayList<>();
    settings.path("jvmArgs").forEach(arg -> jvmArgs.add(arg.asText()));
    return new HarnessSettings(
        settings.path("warmupIterations").asInt(5),
        settings.path("warmupTime").asLong(1000),
        settings.path("iterations").asInt(10),
        settings.path("iterationTime").asLong(1000),
        settings.path("operationsPerIteration").asLong(0),
        settings.path("batchSize").asInt(0),
        settings.path("threads").asInt(1),
        jvmArgs,
        settings.path("steadyState").asBoolean(true),
        settings.path("maxWarmupTime").asLong(30_000));
  }

  /**
   * How many forks a forked run measures in: the job's {@code forks}, else the default of the
   * workload's advertised schema ({@link Harness#settingsSchema}: the harness's {@link
   * #DEFAULT_FORKS}, or the workload's own where it defines {@code forks}, as a load test does).
   * Not a record component: a fork runs once whatever the number, and the parent does the rest.
   */
  static int forks(JsonNode settings, JsonNode schema) {
    if (settings.has("forks")) return settings.get("forks").asInt();
    return schema.path("properties").path("forks").path("default").asInt(DEFAULT_FORKS);
  }

  /**
   * 3: on this project's 2-core machine the mean time per operation of gzip of 80 B moved by a CV
   * of about 12% from one fork to the next, for JMH's forks and the harness's alike, 2.5–4× what
   * the iterations' noise within a fork accounts for (agents/jvm/README.md, *Against JMH*), so one
   * fork against JMH's five differs by about 13% (sd) from the draw of forks alone. Three forks
   * bring that to about 9% at three times a fork's run time; JMH's own five would bring it to 8%
   * at five times.
   */
  static final int DEFAULT_FORKS = 3;

  /** As the run's environment records them. */
  ObjectNode toJson(ObjectMapper mapper) {
    ObjectNode node = mapper.createObjectNode();
    node.put("warmupIterations", warmupIterations);
    node.put("warmupTimeMs", warmupTimeMs);
    node.put("steadyState", steadyState);
    if (steadyState) node.put("maxWarmupTimeMs", maxWarmupTimeMs);
    node.put("iterations", iterations);
    node.put("iterationTimeMs", iterationTimeMs);
    if (operationsPerIteration > 0) node.put("operationsPerIteration", operationsPerIteration);
    node.put("threads", threads);
    if (!jvmArgs.isEmpty()) node.set("jvmArgs", mapper.valueToTree(jvmArgs));
    return node;
  }
}
