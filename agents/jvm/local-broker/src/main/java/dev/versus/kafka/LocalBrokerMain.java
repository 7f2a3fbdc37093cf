package dev.versus.kafka;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;

/**
 * {@code java -jar versus-kafka-broker.jar}: starts a local KRaft broker and prints one line,
 * {@code bootstrap.servers=127.0.0.1:PORT}, on stdout when it is ready (exit 1 with the reason on
 * stderr when it cannot start within {@code VERSUS_KAFKA_BROKER_START_TIMEOUT_MS}, default 60000).
 * It runs until it is stopped (SIGTERM, SIGINT) and deletes its data then.
 */
public final class LocalBrokerMain {
  private LocalBrokerMain() {}

  public static void main(String[] args) throws Exception {
    String configured = System.getenv("VERSUS_KAFKA_BROKER_START_TIMEOUT_MS");
    Duration timeout = Duration.ofMillis(configured == null || configured.isBlank() ? 60_000 : Long.parseLong(configured.trim()));
    LocalBroker broker;
    try {
      broker = LocalBroker.start(timeout);
    } catch (Exception e) {
      System.err.println("local Kafka broker: " + e.getMessage());
      System.exit(1);
      return;
    }
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      try {
        broker.close();
      } catch (Exception e) {
        System.err.println("local Kafka broker: closing: " + e.getMessage());
      }
      stopped.countDown();
    }, "versus-local-broker-stop"));
    System.out.println("bootstrap.servers=" + broker.bootstrapServers());
    System.out.flush();
    stopped.await();
  }
}
