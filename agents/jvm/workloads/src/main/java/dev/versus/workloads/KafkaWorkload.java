package dev.versus.workloads;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.versus.workload.Benchmark;
import dev.versus.workload.Blackhole;
import dev.versus.workload.Direction;
import dev.versus.workload.MetricSpec;
import dev.versus.workload.Recorder;
import dev.versus.workload.SettingsException;
import dev.versus.workload.Workload;
import dev.versus.workloads.kafka.EventSerializer;
import dev.versus.workloads.kafka.EventSerializers;
import dev.versus.workloads.kafka.KafkaProducerRun;
import dev.versus.workloads.kafka.KafkaSecurity;
import dev.versus.workloads.kafka.LocalBrokerProcess;
import java.time.Duration;
import java.util.List;

/**
 * A Kafka producer sending generated order events to a topic, with a value serializer chosen by
 * name (the Kafka serializer write-up): one operation sends {@code records} records and waits
 * until the broker acknowledged each. Per record, the time from send() (which serialises it) to
 * the acknowledgement, and the value's size as the serializer wrote it; records and bytes per
 * second; the records that failed. Security (TLS, SASL) comes from the agent's environment only
 * ({@link KafkaSecurity}).
 */
public final class KafkaWorkload implements Workload {
  @Override
  public String name() {
    return "kafka";
  }

  @Override
  public String description() {
    return "Send generated order events to a Kafka topic with a serializer chosen by name: send time until the broker's ack, message size, records/s";
  }

  @Override
  public String settingsSchema() {
    return """
        {"type": "object", "additionalProperties": false, "properties": {
          "bootstrapServers": {"type": "string", "minLength": 1, "description": "The brokers to connect to, host:port[,host:port…] (TLS and SASL settings come from the agent's VERSUS_KAFKA_* environment, never from here); required unless localBroker is true"},
          "localBroker": {"type": "boolean", "default": false, "description": "Start a Kafka broker (KRaft, one node) on this machine for each run, in a JVM of its own, and send to it instead of bootstrapServers: the agent needs VERSUS_KAFKA_BROKER_JAR (npm start sets it)"},
          "topic": {"type": "string", "pattern": "^[A-Za-z0-9._-]{1,249}$", "default": "versus-orders", "description": "Topic the records go to (created at the first record where the broker allows it)"},
          "serializer": {"type": "string", "minLength": 1, "default": "JACKSON_OBJECT_MAPPER", "description": "Value serializer by name: JACKSON_OBJECT_MAPPER, SPRING_JSON, or one a jar in the agent's plugins directory offers"},
          "records": {"type": "integer", "minimum": 1, "maximum": 100000000, "default": 10000, "description": "Records sent per operation; the operation ends when the broker acknowledged every one"},
          "warmupRecords": {"type": "integer", "minimum": 0, "maximum": 100000000, "default": 1000, "description": "Records sent before the harness starts, not measured (connections, metadata, the JIT)"},
          "items": {"type": "integer", "minimum": 0, "maximum": 1000, "default": 2, "description": "Order lines in each event"},
          "seed": {"type": "integer", "minimum": 0, "default": 1, "description": "Seed of the generated events: the same seed, the same events"},
          "acks": {"type": "string", "enum": ["all", "1", "0"], "default": "all", "description": "The producer's acks: all in-sync replicas, the leader only, or none (then a send ends when it is written to the socket)"},
          "lingerMs": {"type": "integer", "x-unit": "ms", "minimum": 0, "maximum": 60000, "default": 5, "description": "The producer's linger.ms: how long a batch waits for more records"},
          "batchSize": {"type": "integer", "x-unit": "B", "minimum": 0, "maximum": 16777216, "default": 16384, "description": "The producer's batch.size: the most bytes of records sent to a partition at once"},
          "maxInFlight": {"type": "integer", "minimum": 0, "maximum": 1000000, "default": 0, "description": "Most records awaiting the broker's ack at once (the next send waits for a free slot); 0: no bound, every record of an operation is handed to the producer at once and its send time includes the wait in the producer's queue"},
          "compressionType": {"type": "string", "enum": ["none", "gzip", "snappy", "lz4", "zstd"], "default": "none", "description": "The producer's compression.type"},
          "timeoutMs": {"type": "integer", "x-unit": "ms", "minimum": 100, "maximum": 600000, "default": 10000, "description": "Longest wait for the broker: at the start (an unreachable broker fails the run then), for metadata and for each record's acknowledgement"},
          "forks": {"type": "integer", "minimum": 1, "maximum": 20, "default": 1, "description": "Fresh JVMs the test runs in, one after another (the harness's setting; 1 here: each fork sends its own records, to its own local broker)"}
        }}""";
  }

  @Override
  public MetricSpec operationTime() {
    return new MetricSpec("batch_time", "s", Direction.LOWER_IS_BETTER, "Time to send an operation's records and have every one acknowledged");
  }

  @Override
  public List<MetricSpec> metrics() {
    return List.of(
        new MetricSpec("send_time", "ms", Direction.LOWER_IS_BETTER, "Time from send() (which serialises the record) to the broker's acknowledgement, per record"),
        new MetricSpec("message_bytes", "B", Direction.LOWER_IS_BETTER, "Size of a record's value as the serializer wrote it"),
        new MetricSpec("records_per_second", "records/s", Direction.HIGHER_IS_BETTER, "Records acknowledged per second of sending"),
        new MetricSpec("bytes_per_second", "B/s", Direction.HIGHER_IS_BETTER, "Value bytes acknowledged per second of sending"),
        new MetricSpec("error_count", "count", Direction.LOWER_IS_BETTER, "Records the broker did not acknowledge"));
  }

  @Override
  public Benchmark prepare(JsonNode settings) throws SettingsException {
    String name = settings.path("serializer").asText("JACKSON_OBJECT_MAPPER");
    EventSerializer serializer = EventSerializers.find(name)
        .orElseThrow(() -> new SettingsException("serializer", "no serializer named " + name + "; available: " + String.join(", ", EventSerializers.names())));
    boolean local = settings.path("localBroker").asBoolean(false);
    boolean named = !settings.path("bootstrapServers").asText("").isBlank();
    if (local && named) throw new SettingsException("bootstrapServers", "leave it out when localBroker is true: the run sends to the broker it starts");
    if (!local && !named) throw new SettingsException("bootstrapServers", "required: the brokers to connect to, host:port[,host:port…] (or localBroker: true to start one for the run)");
    LocalBrokerProcess broker = null;
    KafkaProducerRun run;
    try {
      JsonNode effective = settings;
      if (local) {
        broker = LocalBrokerProcess.start(Duration.ofMillis(Math.max(60_000, settings.path("timeoutMs").asInt(10_000))), System.getenv());
        effective = ((ObjectNode) settings.deepCopy()).put("bootstrapServers", broker.bootstrapServers());
      }
      run = KafkaProducerRun.start(KafkaProducerRun.Config.from(effective), serializer, KafkaSecurity.fromEnvironment(System.getenv()));
    } catch (SettingsException | RuntimeException failed) {
      if (broker != null) broker.close();
      throw failed;
    }
    LocalBrokerProcess ownBroker = broker;
    return new Benchmark() {
      @Override
      public void beforeMeasurement() {
        run.resetFigures();
      }

      @Override
      public void operation(Blackhole blackhole) throws Exception {
        blackhole.consume(run.sendAll());
      }

      @Override
      public void report(Recorder recorder) {
        run.report(recorder);
      }

      @Override
      public void close() {
        try {
          run.close();
        } finally {
          if (ownBroker != null) ownBroker.close();
        }
      }
    };
  }
}
