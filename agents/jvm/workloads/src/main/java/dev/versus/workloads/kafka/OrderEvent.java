package dev.versus.workloads.kafka;

import java.time.Instant;
import java.util.List;

/**
 * The message the kafka workload sends: an order event shaped like the Kafka serializer
 * write-up's (an id, a customer, order lines, an amount and a date). {@code createdAt} has
 * microsecond precision, as {@code Instant.now()} has on Linux since JDK 15: how a serializer
 * writes that date (a number or an ISO-8601 string) is what makes the messages' sizes differ.
 */
public record OrderEvent(String id, String customer, List<Item> items, double amount, Instant createdAt) {
  /** An order line. */
  public record Item(String sku, int quantity, double price) {}

  public OrderEvent {
    items = List.copyOf(items);
  }
}
