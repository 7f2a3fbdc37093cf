package dev.versus.kafka;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;

/**
 * {@code java -jar versus-kafka-broker.jar}: starts a local KRaft broker and prints one line,
 * {@code bootstrap.servers=127.0.0.1:PORT}, on stdout when it is ready (exit 1 with the reason on
 * stderr when it cannot start within {@code VERSUS_KAFKA_BROKER_START_TIMEOUT_MS}, default 60000).
 * It runs until it is stopped (SIGTERM, SIGINT) and deletes its data then. With
 * {@code --exit-with-parent} it also stops when its stdin closes: the kafka workload starts one per
 * run and holds the other end, so a run's JVM that dies leaves no broker behind.
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
    if (java.util.Arrays.asList(args).contains("--exit-with-parent")) {
      Thread watch = new Thread(() -> {
        try {
          while (System.in.read() >= 0) {
            // nothing is sent; only the end of the stream counts
          }
        } catch (java.io.IOException closed) {
          // the same as the end of the stream
        }
        System.exit(0);
      }, "versus-local-broker-parent");
      watch.setDaemon(true);
      watch.start();
    }
    stopped.await();
  }
}
