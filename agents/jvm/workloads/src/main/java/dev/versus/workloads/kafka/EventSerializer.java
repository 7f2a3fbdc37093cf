package dev.versus.workloads.kafka;

import org.apache.kafka.common.serialization.Serializer;

/**
 * A value serializer the kafka workload can use, chosen by {@link #name()} in the job's
 * {@code serializer} setting. Found with {@link java.util.ServiceLoader}: list the class in
 * {@code META-INF/services/dev.versus.workloads.kafka.EventSerializer} of a jar in the agent's
 * plugins directory (kafka-clients and this interface come from the agent: scope provided).
 */
public interface EventSerializer {
  /** Unique among the serializers, e.g. {@code JACKSON_OBJECT_MAPPER}. */
  String name();

  /** What it is and how it writes the event (e.g. how it writes dates). */
  String description();

  /** A new Kafka serializer of order events; the producer configures and closes it. */
  Serializer<OrderEvent> create();
}
