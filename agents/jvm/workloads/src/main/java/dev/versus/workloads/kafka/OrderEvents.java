package dev.versus.workloads.kafka;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/** Generates the run's order events: the same seed, the same events in the same order. */
public final class OrderEvents {
  /** The first event's date; each next one is a second later, plus its own microseconds. */
  static final Instant START = Instant.parse("2026-11-24T15:00:00Z");

  private final SplittableRandom random;
  private final int items;
  private long next;

  public OrderEvents(long seed, int items) {
    this.random = new SplittableRandom(seed);
    this.items = items;
  }

  /** The next event. */
  public OrderEvent next() {
    long index = next++;
    List<OrderEvent.Item> lines = new ArrayList<>(items);
    long totalCents = 0;
    for (int i = 0; i < items; i++) {
      int quantity = 1 + random.nextInt(5);
      long priceCents = 99 + random.nextInt(20_000);
      totalCents += quantity * priceCents;
      lines.add(new OrderEvent.Item("SKU-" + (10_000 + random.nextInt(90_000)), quantity, priceCents / 100.0));
    }
    Instant createdAt = START.plusSeconds(index).plus(random.nextInt(1_000_000), ChronoUnit.MICROS);
    return new OrderEvent(String.format("ord-%08x", random.nextInt() & 0xffffffffL), "customer-" + (1 + random.nextInt(99_999)), lines, totalCents / 100.0, createdAt);
  }
}
