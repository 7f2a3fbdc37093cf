package dev.versus.kafka;

import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;

/**
 * A Kafka 4 broker in KRaft mode inside this JVM: one node that is both broker and controller,
 * made by Kafka's own test kit (the kit Kafka's integration tests use), its logs in a temporary
 * directory deleted on close. Starting is bounded: a broker not ready in time is closed and the
 * start fails, so a test or {@code npm start} never hangs on it.
 */
public final class LocalBroker implements AutoCloseable {
  private final KafkaClusterTestKit cluster;

  private LocalBroker(KafkaClusterTestKit cluster) {
    this.cluster = cluster;
  }

  /** Starts a broker on a free loopback port; fails when it is not ready within {@code timeout}. */
  public static LocalBroker start(Duration timeout) throws Exception {
    KafkaClusterTestKit cluster = new KafkaClusterTestKit.Builder(
            new TestKitNodes.Builder().setCombined(true).setNumBrokerNodes(1).setNumControllerNodes(1).build())
        // Topics appear at the first record, as on a default broker; one partition, no replicas.
        .setConfigProp("auto.create.topics.enable", "true")
        .setConfigProp("num.partitions", "1")
        .setConfigProp("offsets.topic.replication.factor", "1")
        .setConfigProp("group.initial.rebalance.delay.ms", "0")
        .build();
    ExecutorService starter = Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, "versus-local-broker-start");
      t.setDaemon(true);
      return t;
    });
    try {
      Future<?> started = starter.submit(() -> {
        cluster.format();
        cluster.startup();
        cluster.waitForReadyBrokers();
        return null;
      });
      started.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
      return new LocalBroker(cluster);
    } catch (TimeoutException slow) {
      cluster.close();
      throw new IllegalStateException("the local Kafka broker was not ready within " + timeout.toMillis() + " ms", slow);
    } catch (Exception failed) {
      cluster.close();
      throw failed;
    } finally {
      starter.shutdownNow();
    }
  }

  /** {@code host:port} for a client's bootstrap.servers. */
  public String bootstrapServers() {
    return cluster.bootstrapServers();
  }

  @Override
  public void close() throws Exception {
    cluster.close();
  }
}
