package dev.versus.harness;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.versus.workload.MetricSpec;
import dev.versus.workload.Recorder;
import dev.versus.workload.Summary;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.HdrHistogram.Histogram;

/**
 * Collects what the harness and the workload record for one run and builds the run document:
 * metrics in the order first recorded, each with the unit and direction of its MetricSpec.
 * Safe for concurrent use (an http workload records from several threads).
 */
final class RunRecorder implements Recorder {
  /** Recent log lines kept for a failure's log tail. */
  static final int LOG_TAIL_LINES = 200;
  /** Above this many samples a metric goes as samplesBase64 (8 bytes a sample, no JSON parsing). */
  static final int SAMPLES_INLINE_MAX = 1000;

  private final ObjectMapper mapper;
  private final Map<String, MetricSpec> specs;
  private final Map<String, ObjectNode> metrics = new LinkedHashMap<>();
  private final Map<String, List<Double>> samples = new LinkedHashMap<>();
  private final ObjectNode environment;
  private final List<String> warnings = new ArrayList<>();
  private final Deque<String> lines = new ArrayDeque<>();
  private final Consumer<String> onLog;

  RunRecorder(ObjectMapper mapper, List<MetricSpec> specs, Consumer<String> onLog) {
    this.mapper = mapper;
    this.specs = new LinkedHashMap<>();
    for (MetricSpec spec : specs) this.specs.put(spec.key(), spec);
    this.environment = mapper.createObjectNode();
    this.onLog = onLog;
  }

  private ObjectNode metric(String key) {
    MetricSpec spec = specs.get(key);
    if (spec == null) throw new IllegalArgumentException("metric " + key + " is not among the workload's metrics()");
    return metrics.computeIfAbsent(key, k -> {
      ObjectNode node = mapper.createObjectNode();
      node.put("key", k);
      node.put("unit", spec.unit());
      node.put("direction", spec.direction().wire());
      // Said only when it is not the default (mean): e.g. cpu_percent_max, compared by its max.
      if (!MetricSpec.DEFAULT_AGGREGATION.equals(spec.aggregation())) node.put("aggregation", spec.aggregation());
      return node;
    });
  }

  @Override
  public synchronized void summary(String key, Summary summary) {
    ObjectNode node = mapper.createObjectNode();
    node.put("n", summary.n());
    node.put("mean", finite(key, summary.mean()));
    if (summary.sd() != null) node.put("sd", finite(key, summary.sd()));
    if (summary.min() != null) node.put("min", finite(key, summary.min()));
    if (summary.max() != null) node.put("max", finite(key, summary.max()));
    // The server refuses a summary no set of values could have: say so here, naming the metric.
    List<String> problems = SummaryRules.contradictions(node);
    if (!problems.isEmpty()) throw new IllegalArgumentException("metric " + key + ": the summary " + node + " cannot be true: " + String.join("; ", problems));
    metric(key).set("summary", node);
  }

  @Override
  public synchronized void value(String key, double value) {
    metric(key).put("value", finite(key, value));
  }

  @Override
  public synchronized void sample(String key, double value) {
    finite(key, value);
    metric(key);
    samples.computeIfAbsent(key, k -> new ArrayList<>()).add(value);
  }

  @Override
  public synchronized void histogram(String key, Histogram histogram, double scale) {
    if (histogram.getTotalCount() == 0) return;
    if (!(scale > 0) || Double.isInfinite(scale)) throw new IllegalArgumentException("metric " + key + ": histogram scale must be positive");
    ObjectNode node = metric(key);
    node.put("histogram", encode(histogram));
    node.put("histogramScale", scale);
  }

  /** HdrHistogram's V2 compressed encoding, base64: what the server decodes. */
  static String encode(Histogram histogram) {
    ByteBuffer buffer = ByteBuffer.allocate(histogram.getNeededByteBufferCapacity());
    int length = histogram.encodeIntoCompressedByteBuffer(buffer);
    byte[] bytes = new byte[length];
    buffer.flip();
    buffer.get(bytes);
    return Base64.getEncoder().encodeToString(bytes);
  }

  @Override
  public void series(String key, double intervalMs, double[] values) {
    series(key, null, intervalMs, values);
  }

  /** A series that starts at {@code startedAt} (the run's start when null), e.g. the measured window's. */
  synchronized void series(String key, Instant startedAt, double intervalMs, double[] values) {
    if (values.length == 0) return;
    ObjectNode node = mapper.createObjectNode();
    if (startedAt != null) node.put("startedAt", startedAt.toString());
    node.put("intervalMs", intervalMs);
    ArrayNode array = node.putArray("values");
    for (double v : values) array.add(finite(key, v));
    metric(key).set("timeSeries", node);
  }

  @Override
  public synchronized void environment(String key, Object value) {
    environment.set(key, mapper.valueToTree(value));
  }

  @Override
  public void warn(String message) {
    synchronized (this) {
      warnings.add(message);
    }
    log("warning: " + message);
  }

  @Override
  public void log(String line) {
    synchronized (this) {
      lines.addLast(line);
      while (lines.size() > LOG_TAIL_LINES) lines.removeFirst();
    }
    if (onLog != null) onLog.accept(line);
  }

  synchronized List<String> warnings() {
    return List.copyOf(warnings);
  }

  synchronized String logTail() {
    return String.join("\n", lines);
  }

  private static double finite(String key, double value) {
    if (!Double.isFinite(value)) throw new IllegalArgumentException("metric " + key + ": " + value + " is not a finite number");
    return value;
  }

  /** The run: environment = base + what the workload recorded (+ warnings). */
  synchronized ObjectNode build(Instant startedAt, Instant finishedAt, ObjectNode base) {
    ObjectNode run = mapper.createObjectNode();
    run.put("startedAt", startedAt.toString());
    run.put("finishedAt", finishedAt.toString());
    ObjectNode env = base.deepCopy();
    env.setAll(environment);
    if (!warnings.isEmpty()) env.set("warnings", mapper.valueToTree(warnings));
    run.set("environment", env);
    ArrayNode list = run.putArray("metrics");
    for (Map.Entry<String, ObjectNode> entry : metrics.entrySet()) {
      ObjectNode node = entry.getValue().deepCopy();
      List<Double> values = samples.get(entry.getKey());
      if (values != null) putSamples(node, values);
      list.add(node);
    }
    return run;
  }

  /** A metric's samples: inline, or as samplesBase64 when there are more than SAMPLES_INLINE_MAX. */
  static void putSamples(ObjectNode node, List<Double> values) {
    if (values.size() > SAMPLES_INLINE_MAX) {
      ByteBuffer bytes = ByteBuffer.allocate(8 * values.size()).order(java.nio.ByteOrder.LITTLE_ENDIAN);
      values.forEach(bytes::putDouble);
      node.put("samplesBase64", Base64.getEncoder().encodeToString(bytes.array()));
    } else {
      ArrayNode array = node.putArray("samples");
      values.forEach(array::add);
    }
  }
}
