package dev.versus.workloads.kafka;

import com.fasterxml.jackson.databind.JsonNode;
import dev.versus.workload.Recorder;
import dev.versus.workload.SettingsException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.utils.AppInfoParser;

/**
 * The kafka workload's producer: checks at the start that a broker answers (bounded by
 * {@code timeoutMs}, so an unreachable one fails the run naming the bootstrap servers instead of
 * hanging), sends the warm-up records, then sends {@code records} per operation and waits for
 * every acknowledgement.
 */
public final class KafkaProducerRun implements AutoCloseable {
  /** The workload's settings (already checked against its schema). */
  public record Config(String bootstrapServers, String topic, long records, long warmupRecords, int items, long seed, String acks, int lingerMs, int batchSize, String compressionType, int timeoutMs,
      int maxInFlight) {
    public static Config from(JsonNode s) {
      return new Config(s.path("bootstrapServers").asText(), s.path("topic").asText("versus-orders"), s.path("records").asLong(10_000), s.path("warmupRecords").asLong(1000),
          s.path("items").asInt(2), s.path("seed").asLong(1), s.path("acks").asText("all"), s.path("lingerMs").asInt(5), s.path("batchSize").asInt(16384),
          s.path("compressionType").asText("none"), s.path("timeoutMs").asInt(10_000), s.path("maxInFlight").asInt(0));
    }
  }

  private final Config config;
  private final EventSerializer serializer;
  private final Map<String, String> security;
  private final KafkaProducer<String, OrderEvent> producer;
  private final OrderEvents events;
  private final SendStats stats = new SendStats();
  private List<Node> brokers;

  private KafkaProducerRun(Config config, EventSerializer serializer, Map<String, String> security, KafkaProducer<String, OrderEvent> producer) {
    this.config = config;
    this.serializer = serializer;
    this.security = security;
    this.producer = producer;
    this.events = new OrderEvents(config.seed(), config.items());
  }

  /** Connects, checks the broker and the topic, sends the warm-up records. */
  public static KafkaProducerRun start(Config config, EventSerializer serializer, Map<String, String> security) throws SettingsException {
    List<Node> brokers = checkBroker(config, security);
    Map<String, Object> properties = new LinkedHashMap<>(security);
    properties.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, config.bootstrapServers());
    properties.put(ProducerConfig.ACKS_CONFIG, config.acks());
    properties.put(ProducerConfig.LINGER_MS_CONFIG, config.lingerMs());
    properties.put(ProducerConfig.BATCH_SIZE_CONFIG, config.batchSize());
    properties.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, config.compressionType());
    properties.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, config.timeoutMs());
    properties.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, config.timeoutMs());
    // Kafka requires delivery.timeout.ms >= linger.ms + request.timeout.ms.
    properties.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, config.timeoutMs() + config.lingerMs());
    // acks=all implies idempotence by default; with acks 1 or 0 Kafka refuses idempotence.
    properties.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, config.acks().equals("all"));
    KafkaProducerRun run;
    SizeCounting values = new SizeCounting(serializer.create());
    KafkaProducer<String, OrderEvent> producer = new KafkaProducer<>(properties, new StringSerializer(), values);
    run = new KafkaProducerRun(config, serializer, security, producer);
    values.stats = run.stats;
    run.brokers = brokers;
    try {
      producer.partitionsFor(config.topic());
      run.send(config.warmupRecords());
    } catch (KafkaException e) {
      producer.close(Duration.ZERO);
      throw new IllegalStateException("topic " + config.topic() + " at " + config.bootstrapServers() + ": " + e.getMessage(), e);
    }
    return run;
  }

  /** An unreachable broker fails here, within timeoutMs, naming the bootstrap servers. */
  private static List<Node> checkBroker(Config config, Map<String, String> security) throws SettingsException {
    Map<String, Object> properties = new LinkedHashMap<>(security);
    properties.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, config.bootstrapServers());
    properties.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, config.timeoutMs());
    properties.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, config.timeoutMs());
    Admin admin;
    try {
      admin = Admin.create(properties);
    } catch (KafkaException bad) {
      throw new SettingsException("bootstrapServers", "cannot be used (" + config.bootstrapServers() + "): " + rootMessage(bad));
    }
    try {
      return List.copyOf(admin.describeCluster(new DescribeClusterOptions().timeoutMs(config.timeoutMs())).nodes().get(config.timeoutMs() + 1000L, TimeUnit.MILLISECONDS));
    } catch (ExecutionException | TimeoutException e) {
      throw new IllegalStateException("no Kafka broker answered at bootstrap servers " + config.bootstrapServers() + " within " + config.timeoutMs() + " ms (timeoutMs): " + rootMessage(e), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while connecting to " + config.bootstrapServers(), e);
    } finally {
      admin.close(Duration.ZERO);
    }
  }

  private static String rootMessage(Throwable e) {
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) root = root.getCause();
    return root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
  }

  /** The figures start afresh: what report() gives covers the records sent from now on. */
  public void resetFigures() {
    stats.reset();
  }

  /** Sends {@code records} records and waits for every acknowledgement; returns how many failed. */
  public long sendAll() {
    long failedBefore = stats.failed();
    long start = System.nanoTime();
    send(config.records());
    stats.sending(System.nanoTime() - start);
    long failed = stats.failed() - failedBefore;
    if (failed == config.records()) {
      throw new IllegalStateException("no record of " + failed + " reached " + config.topic() + " at " + config.bootstrapServers() + ": " + stats.firstError());
    }
    return failed;
  }

  private void send(long count) {
    // maxInFlight bounds the records awaiting their ack, so a send time is the serializer, the
    // network and the broker, not the wait behind a burst of records queued in the producer.
    Semaphore inFlight = config.maxInFlight() > 0 ? new Semaphore(config.maxInFlight()) : null;
    for (long i = 0; i < count; i++) {
      OrderEvent event = events.next();
      if (inFlight != null) inFlight.acquireUninterruptibly();
      long start = System.nanoTime();
      try {
        producer.send(new ProducerRecord<>(config.topic(), event.id(), event), (metadata, error) -> {
          if (error == null) {
            stats.acknowledged(System.nanoTime() - start);
          } else {
            stats.failed(error);
          }
          if (inFlight != null) inFlight.release();
        });
      } catch (RuntimeException refused) {
        if (inFlight != null) inFlight.release();
        throw refused;
      }
    }
    producer.flush();
  }

  public void report(Recorder recorder) {
    stats.report(recorder);
    Map<String, Object> kafka = new LinkedHashMap<>();
    kafka.put("client", "kafka-clients " + AppInfoParser.getVersion());
    kafka.put("serializer", serializer.name() + ": " + serializer.description());
    kafka.put("serializerClass", serializer.getClass().getName());
    kafka.put("bootstrapServers", config.bootstrapServers());
    kafka.put("brokers", brokers.size());
    kafka.put("topic", config.topic());
    kafka.put("acks", config.acks());
    kafka.put("lingerMs", config.lingerMs());
    kafka.put("batchSize", config.batchSize());
    kafka.put("compressionType", config.compressionType());
    kafka.put("maxInFlight", config.maxInFlight());
    kafka.put("recordsPerOperation", config.records());
    kafka.put("warmupRecords", config.warmupRecords());
    kafka.put("securityProtocol", security.getOrDefault("security.protocol", "PLAINTEXT"));
    // Which properties the environment set, never their values.
    if (!security.isEmpty()) kafka.put("securityPropertiesFromEnvironment", List.copyOf(security.keySet()));
    recorder.environment("kafka", kafka);
  }

  @Override
  public void close() {
    producer.close(Duration.ofMillis(config.timeoutMs()));
  }

  /** The serializer as the producer calls it, counting each value's size. */
  private static final class SizeCounting implements Serializer<OrderEvent> {
    private final Serializer<OrderEvent> inner;
    SendStats stats;

    SizeCounting(Serializer<OrderEvent> inner) {
      this.inner = inner;
    }

    @Override
    public void configure(Map<String, ?> configs, boolean isKey) {
      inner.configure(configs, isKey);
    }

    @Override
    public byte[] serialize(String topic, OrderEvent data) {
      return counted(inner.serialize(topic, data));
    }

    @Override
    public byte[] serialize(String topic, Headers headers, OrderEvent data) {
      return counted(inner.serialize(topic, headers, data));
    }

    private byte[] counted(byte[] value) {
      if (value != null && stats != null) stats.size(value.length);
      return value;
    }

    @Override
    public void close() {
      inner.close();
    }
  }
}
