package dev.versus.workloads;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import dev.versus.harness.RunFailedException;
import dev.versus.harness.RunOptions;
import dev.versus.kafka.LocalBroker;
import dev.versus.workload.SettingsException;
import dev.versus.workloads.kafka.EventSerializer;
import dev.versus.workloads.kafka.EventSerializers;
import dev.versus.workloads.kafka.JacksonObjectMapperSerializer;
import dev.versus.workloads.kafka.KotlinxJsonSerializer;
import dev.versus.workloads.kafka.LocalBrokerProcess;
import dev.versus.workloads.kafka.OrderEvent;
import dev.versus.workloads.kafka.OrderEvents;
import java.net.ServerSocket;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The kafka workload against a real Kafka 4 broker (KRaft, in this JVM) started for the class. */
class KafkaWorkloadTest {
  private static final int RECORDS = 60;
  private static final int WARMUP = 5;
  /** One operation of RECORDS records after WARMUP unmeasured ones. */
  private static final String ONE_RUN = "\"records\": " + RECORDS + ", \"warmupRecords\": " + WARMUP
      + ", \"steadyState\": false, \"warmupIterations\": 0, \"iterations\": 1, \"operationsPerIteration\": 1";
  /** Reads both ways of writing an Instant (a number of seconds, an ISO-8601 string). */
  private static final ObjectMapper READER = JsonMapper.builder().addModule(new JavaTimeModule())
      .disable(DeserializationFeature.ADJUST_DATES_TO_CONTEXT_TIME_ZONE).build();
  private static LocalBroker broker;

  @BeforeAll
  static void startBroker() throws Exception {
    broker = LocalBroker.start(Duration.ofSeconds(90));
  }

  @AfterAll
  static void stopBroker() throws Exception {
    if (broker != null) broker.close();
  }

  private static ObjectNode run(String serializer, String topic, RunOptions options) throws Exception {
    return Runs.run(new KafkaWorkload(), "{\"bootstrapServers\": \"" + broker.bootstrapServers() + "\", \"topic\": \"" + topic
        + "\", \"serializer\": \"" + serializer + "\", " + ONE_RUN + "}", options);
  }

  /** Every record of the topic, from the start, in order (one partition). */
  private static List<ConsumerRecord<byte[], byte[]>> consume(String topic, int expected) {
    Map<String, Object> config = Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers());
    List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
    try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
      TopicPartition partition = new TopicPartition(topic, 0);
      consumer.assign(List.of(partition));
      consumer.seekToBeginning(List.of(partition));
      long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
      while (records.size() < expected && System.nanoTime() < deadline) {
        consumer.poll(Duration.ofMillis(200)).forEach(records::add);
      }
    }
    return records;
  }

  private static List<OrderEvent> generated(int count) {
    OrderEvents events = new OrderEvents(1, 2);
    List<OrderEvent> list = new ArrayList<>();
    for (int i = 0; i < count; i++) list.add(events.next());
    return list;
  }

  private static double mean(JsonNode run, String key) {
    return Runs.metric((ObjectNode) run, key).get("summary").get("mean").asDouble();
  }

  /** Sends with the serializer, reads the records back and checks them: returns the run. */
  private static ObjectNode producesRecordsReadBackEqual(String serializer, RunOptions options) throws Exception {
    String topic = "orders-" + serializer.toLowerCase();
    ObjectNode run = run(serializer, topic, options);
    List<ConsumerRecord<byte[], byte[]>> records = consume(topic, WARMUP + RECORDS);
    List<OrderEvent> sent = generated(WARMUP + RECORDS);
    assertEquals(WARMUP + RECORDS, records.size(), "records on the topic");
    EventSerializer own = withLoader(options, () -> EventSerializers.find(serializer).orElseThrow());
    long measuredBytes = 0;
    for (int i = 0; i < records.size(); i++) {
      byte[] value = records.get(i).value();
      assertEquals(sent.get(i).id(), new String(records.get(i).key(), StandardCharsets.UTF_8));
      // The size the run reports is the serializer's own output.
      assertEquals(own.create().serialize(topic, sent.get(i)).length, value.length, "record " + i);
      if (i >= WARMUP) measuredBytes += value.length;
      if (!serializer.equals("USER_CSV")) assertEquals(sent.get(i), READER.readValue(value, OrderEvent.class), "record " + i);
    }
    assertEquals((double) measuredBytes / RECORDS, mean(run, "message_bytes"), 1e-9);
    assertEquals(RECORDS, Runs.metric(run, "message_bytes").get("summary").get("n").asLong());
    JsonNode sendTime = Runs.metric(run, "send_time");
    assertEquals(RECORDS, sendTime.get("summary").get("n").asLong(), "a send time per measured record");
    assertEquals("ms", sendTime.get("unit").asText());
    assertTrue(sendTime.has("histogram"));
    assertTrue(mean(run, "send_time") > 0);
    assertEquals(0, mean(run, "error_count"));
    assertTrue(mean(run, "records_per_second") > 0);
    assertEquals(mean(run, "records_per_second") * mean(run, "message_bytes"), mean(run, "bytes_per_second"), 1e-6 * mean(run, "bytes_per_second"));
    assertTrue(run.get("environment").get("kafka").get("serializer").asText().startsWith(serializer + ": "));
    return run;
  }

  private interface Call<T> {
    T call() throws Exception;
  }

  private static <T> T withLoader(RunOptions options, Call<T> call) throws Exception {
    Thread thread = Thread.currentThread();
    ClassLoader previous = thread.getContextClassLoader();
    if (options.classLoader() != null) thread.setContextClassLoader(options.classLoader());
    try {
      return call.call();
    } finally {
      thread.setContextClassLoader(previous);
    }
  }

  @Test
  void jacksonAndSpringProduceRecordsThatReadBackEqualAndSpringsNumericDatesMakeSmallerMessages() throws Exception {
    ObjectNode jackson = producesRecordsReadBackEqual("JACKSON_OBJECT_MAPPER", RunOptions.inProcess());
    // In a forked JVM, as the agent runs a job: Spring Kafka and its ObjectMapper load there too.
    ObjectNode spring = producesRecordsReadBackEqual("SPRING_JSON", RunOptions.defaults());
    assertTrue(spring.get("environment").get("harness").get("forked").asBoolean());
    // The only difference is the date: Jackson's ISO-8601 string ("2026-11-24T15:00:00.123456Z",
    // quoted) against Spring's seconds.nanoseconds ("1795532400.123456000", 20 characters).
    double isoLonger = 0;
    for (OrderEvent event : generated(WARMUP + RECORDS).subList(WARMUP, WARMUP + RECORDS)) {
      isoLonger += DateTimeFormatter.ISO_INSTANT.format(event.createdAt()).length() + 2 - 20;
    }
    isoLonger /= RECORDS;
    assertEquals(mean(jackson, "message_bytes") - isoLonger, mean(spring, "message_bytes"), 1e-9);
    assertTrue(mean(spring, "message_bytes") < mean(jackson, "message_bytes"), "SPRING_JSON's messages are the smaller");
  }

  @Test
  void kotlinxWritesTheSameBytesAsJacksonsIsoMapper() throws Exception {
    ObjectNode kotlinx = producesRecordsReadBackEqual("KOTLINX_JSON", RunOptions.inProcess());
    for (OrderEvent event : generated(WARMUP + RECORDS)) {
      byte[] jackson = new JacksonObjectMapperSerializer().create().serialize("t", event);
      assertEquals(new String(jackson, StandardCharsets.UTF_8), new String(new KotlinxJsonSerializer().create().serialize("t", event), StandardCharsets.UTF_8));
    }
    assertTrue(kotlinx.get("environment").get("kafka").get("serializer").asText().contains("kotlinx.serialization"));
  }

  @Test
  void aSerializerFromAPluginJarIsFoundByName(@TempDir Path dir) throws Exception {
    Path jar = userSerializerJar(dir);
    try (URLClassLoader plugins = new URLClassLoader(new URL[] {jar.toUri().toURL()}, getClass().getClassLoader())) {
      RunOptions options = RunOptions.inProcess().withClassLoader(plugins);
      ObjectNode run = producesRecordsReadBackEqual("USER_CSV", options);
      assertEquals("com.example.kafka.CsvSerializer", run.get("environment").get("kafka").get("serializerClass").asText());
      List<ConsumerRecord<byte[], byte[]>> records = consume("orders-user_csv", WARMUP + RECORDS);
      OrderEvent first = generated(1).get(0);
      assertEquals(first.id() + "," + first.customer() + "," + first.amount() + "," + first.createdAt(), new String(records.get(0).value(), StandardCharsets.UTF_8));
    }
    // Without the jar the name is unknown, and the error lists the serializers there are.
    SettingsException unknown = assertThrows(SettingsException.class, () -> run("USER_CSV", "orders-none", RunOptions.inProcess()));
    assertEquals("serializer", unknown.field());
    assertTrue(unknown.getMessage().contains("JACKSON_OBJECT_MAPPER, SPRING_JSON, KOTLINX_JSON"), unknown.getMessage());
  }

  /** A user's serializer jar: compiled here against the agent's classes, with its services file. */
  private static Path userSerializerJar(Path dir) throws Exception {
    Path src = dir.resolve("src/com/example/kafka/CsvSerializer.java");
    Files.createDirectories(src.getParent());
    Files.writeString(src, """
        package com.example.kafka;

        import dev.versus.workloads.kafka.EventSerializer;
        import dev.versus.workloads.kafka.OrderEvent;
        import java.nio.charset.StandardCharsets;
        import org.apache.kafka.common.serialization.Serializer;

        public final class CsvSerializer implements EventSerializer {
          public String name() { return "USER_CSV"; }
          public String description() { return "id,customer,amount,createdAt"; }
          public Serializer<OrderEvent> create() {
            return (topic, e) -> (e.id() + "," + e.customer() + "," + e.amount() + "," + e.createdAt()).getBytes(StandardCharsets.UTF_8);
          }
        }
        """);
    Path classes = dir.resolve("classes");
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    int status = javac.run(null, null, null, "-d", classes.toString(), "-classpath", System.getProperty("java.class.path"), src.toString());
    assertEquals(0, status, "javac");
    Path jar = dir.resolve("csv-serializer.jar");
    try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
      out.putNextEntry(new JarEntry("com/example/kafka/CsvSerializer.class"));
      out.write(Files.readAllBytes(classes.resolve("com/example/kafka/CsvSerializer.class")));
      out.putNextEntry(new JarEntry("META-INF/services/dev.versus.workloads.kafka.EventSerializer"));
      out.write("com.example.kafka.CsvSerializer\n".getBytes(StandardCharsets.UTF_8));
    }
    return jar;
  }

  @Test
  void aBrokerThatIsDownFailsTheRunNamingTheBootstrapServers() throws Exception {
    int port;
    try (ServerSocket free = new ServerSocket(0)) {
      port = free.getLocalPort();
    }
    String servers = "127.0.0.1:" + port;
    long start = System.nanoTime();
    RunFailedException e = assertThrows(RunFailedException.class, () -> Runs.run(new KafkaWorkload(),
        "{\"bootstrapServers\": \"" + servers + "\", \"timeoutMs\": 1500, " + ONE_RUN + "}"));
    assertTrue(e.getMessage().contains("no Kafka broker answered at bootstrap servers " + servers + " within 1500 ms"), e.getMessage());
    assertTrue(System.nanoTime() - start < Duration.ofSeconds(30).toNanos(), "bounded by timeoutMs, not a hang");
  }

  @Test
  void maxInFlightMakesEachSendWaitForTheAcksBeforeIt() throws Exception {
    // linger.ms 100: a batch leaves after 100 ms unless it fills. One record in flight at a time, so
    // every record waits its own 100 ms; unbounded, the operation's records share one batch's wait.
    String settings = "\"bootstrapServers\": \"" + broker.bootstrapServers() + "\", \"lingerMs\": 100, \"records\": 8, \"warmupRecords\": 1"
        + ", \"steadyState\": false, \"warmupIterations\": 0, \"iterations\": 1, \"operationsPerIteration\": 1";
    ObjectNode one = Runs.run(new KafkaWorkload(), "{" + settings + ", \"topic\": \"orders-one-in-flight\", \"maxInFlight\": 1}");
    ObjectNode all = Runs.run(new KafkaWorkload(), "{" + settings + ", \"topic\": \"orders-unbounded\"}");
    assertEquals(1, one.get("environment").get("kafka").get("maxInFlight").asInt());
    assertTrue(mean(one, "records_per_second") < 13, "8 records one after another, each about 100 ms (the producer may send a batch a few ms before its linger ends): " + mean(one, "records_per_second"));
    assertTrue(mean(all, "records_per_second") > 2 * mean(one, "records_per_second"), "unbounded, the records share their batches' waits: " + mean(all, "records_per_second"));
    assertEquals(8, Runs.metric(one, "send_time").get("summary").get("n").asLong());
  }

  @Test
  void localBrokerStartsABrokerOfItsOwnForTheRunAndStopsItAfter() throws Exception {
    ObjectNode run = Runs.run(new KafkaWorkload(), "{\"localBroker\": true, \"topic\": \"orders-local\", " + ONE_RUN + "}");
    assertEquals(RECORDS, Runs.metric(run, "send_time").get("summary").get("n").asLong(), "sent to the run's own broker and acknowledged");
    String servers = run.get("environment").get("kafka").get("bootstrapServers").asText();
    assertNotEquals(broker.bootstrapServers(), servers, "not the test's broker");
    int port = Integer.parseInt(servers.substring(servers.lastIndexOf(':') + 1));
    // Closed with the run: nothing listens on its port any more.
    assertThrows(java.io.IOException.class, () -> new java.net.Socket("127.0.0.1", port).close());
  }

  @Test
  void localBrokerAndBootstrapServersTogetherOrAnAgentWithoutTheBrokerAreSettingsErrors() {
    SettingsException both = assertThrows(SettingsException.class,
        () -> Runs.run(new KafkaWorkload(), "{\"localBroker\": true, \"bootstrapServers\": \"" + broker.bootstrapServers() + "\", " + ONE_RUN + "}"));
    assertEquals("bootstrapServers", both.field());
    assertTrue(both.getMessage().contains("leave it out when localBroker is true"), both.getMessage());
    SettingsException noJar = assertThrows(SettingsException.class,
        () -> LocalBrokerProcess.start(Duration.ofSeconds(5), Map.of(LocalBrokerProcess.JAR_VARIABLE, "/nowhere/versus-kafka-broker.jar")));
    assertEquals("localBroker", noJar.field());
    assertTrue(noJar.getMessage().contains("VERSUS_KAFKA_BROKER_JAR=/nowhere/versus-kafka-broker.jar is not a file"), noJar.getMessage());
    assertEquals(java.util.Optional.empty(), LocalBrokerProcess.classPath(Map.of(LocalBrokerProcess.JAR_VARIABLE, "/nowhere/versus-kafka-broker.jar")));
  }

  @Test
  void bootstrapServersThatAreNoAddressAreASettingsError() {
    SettingsException e = assertThrows(SettingsException.class, () -> Runs.run(new KafkaWorkload(), "{\"bootstrapServers\": \"not a host list\", " + ONE_RUN + "}"));
    assertEquals("bootstrapServers", e.field());
    SettingsException missing = assertThrows(SettingsException.class, () -> Runs.run(new KafkaWorkload(), "{" + ONE_RUN + "}"));
    assertEquals("bootstrapServers", missing.field());
    assertFalse(e.getMessage().isEmpty());
  }
}
