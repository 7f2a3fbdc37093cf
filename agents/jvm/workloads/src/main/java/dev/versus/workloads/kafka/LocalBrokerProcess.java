package dev.versus.workloads.kafka;

import dev.versus.workload.SettingsException;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The kafka workload's {@code localBroker}: a Kafka broker in KRaft mode for one run, in a JVM of
 * its own (agents/jvm/local-broker) so its CPU, heap and GC are not the measured JVM's. The broker
 * comes from {@code VERSUS_KAFKA_BROKER_JAR} (the shaded versus-kafka-broker.jar; `npm start` sets
 * it for the agent it starts), else from this JVM's class path when the broker's classes are on it
 * (the workload's tests). The broker stops when the run closes it, and by itself when this JVM
 * dies (it watches its stdin, which only this process holds).
 */
public final class LocalBrokerProcess implements AutoCloseable {
  public static final String JAR_VARIABLE = "VERSUS_KAFKA_BROKER_JAR";
  static final String MAIN_CLASS = "dev.versus.kafka.LocalBrokerMain";
  private static final String READY = "bootstrap.servers=";

  private final Process process;
  private final String bootstrapServers;

  private LocalBrokerProcess(Process process, String bootstrapServers) {
    this.process = process;
    this.bootstrapServers = bootstrapServers;
  }

  /** The class path that holds the broker, or empty when this agent cannot start one. */
  public static Optional<String> classPath(Map<String, String> env) {
    String jar = env.get(JAR_VARIABLE);
    if (jar != null && !jar.isBlank()) return Files.isRegularFile(Path.of(jar.trim())) ? Optional.of(jar.trim()) : Optional.empty();
    try {
      Class.forName(MAIN_CLASS, false, LocalBrokerProcess.class.getClassLoader());
      return Optional.of(System.getProperty("java.class.path"));
    } catch (ClassNotFoundException | LinkageError absent) {
      return Optional.empty();
    }
  }

  /** Starts a broker and waits until it answers; fails naming what is missing or what it said. */
  public static LocalBrokerProcess start(Duration timeout, Map<String, String> env) throws SettingsException {
    String classPath = classPath(env).orElseThrow(() -> new SettingsException("localBroker",
        "this agent cannot start a local Kafka broker: " + (env.get(JAR_VARIABLE) == null || env.get(JAR_VARIABLE).isBlank()
            ? "set " + JAR_VARIABLE + " to agents/jvm/local-broker/target/versus-kafka-broker.jar (npm start does)"
            : JAR_VARIABLE + "=" + env.get(JAR_VARIABLE) + " is not a file")
            + ", or name a broker in bootstrapServers"));
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    List<String> command = new ArrayList<>(List.of(java, "-Xmx512m", "-cp", classPath, MAIN_CLASS, "--exit-with-parent"));
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    builder.environment().put("VERSUS_KAFKA_BROKER_START_TIMEOUT_MS", Long.toString(timeout.toMillis()));
    Process process;
    try {
      process = builder.start();
    } catch (IOException e) {
      throw new IllegalStateException("cannot start the local Kafka broker (" + java + "): " + e.getMessage(), e);
    }
    Deque<String> tail = new ArrayDeque<>();
    CompletableFuture<String> ready = new CompletableFuture<>();
    // Reads the broker's output to its end, so a chatty broker never blocks on a full pipe.
    Thread reader = new Thread(() -> {
      try (BufferedReader lines = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
        for (String line = lines.readLine(); line != null; line = lines.readLine()) {
          if (!ready.isDone() && line.startsWith(READY)) ready.complete(line.substring(READY.length()).trim());
          synchronized (tail) {
            tail.addLast(line);
            if (tail.size() > 20) tail.removeFirst();
          }
        }
      } catch (IOException closed) {
        // the broker ended
      }
      ready.complete(null);
    }, "versus-local-broker-output");
    reader.setDaemon(true);
    reader.start();
    String servers;
    try {
      // The broker bounds its own start by the same timeout; a little more covers its JVM's start.
      servers = ready.get(timeout.toMillis() + 15_000, TimeUnit.MILLISECONDS);
    } catch (TimeoutException | java.util.concurrent.ExecutionException e) {
      servers = null;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      servers = null;
    }
    if (servers == null || servers.isEmpty()) {
      stop(process);
      String said;
      synchronized (tail) {
        said = String.join(" | ", tail);
      }
      throw new IllegalStateException("the local Kafka broker did not start within " + timeout.toMillis() + " ms" + (said.isEmpty() ? "" : ": " + said));
    }
    return new LocalBrokerProcess(process, servers);
  }

  /** {@code host:port} of the broker, for the producer's bootstrap.servers. */
  public String bootstrapServers() {
    return bootstrapServers;
  }

  @Override
  public void close() {
    stop(process);
  }

  private static void stop(Process process) {
    process.destroy();
    try {
      if (!process.waitFor(30, TimeUnit.SECONDS)) process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }
}
