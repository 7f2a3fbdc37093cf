package dev.versus.workloads;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.PackageVersion;
import dev.versus.workload.Benchmark;
import dev.versus.workload.Blackhole;
import dev.versus.workload.Direction;
import dev.versus.workload.MetricSpec;
import dev.versus.workload.Recorder;
import dev.versus.workload.Summary;
import dev.versus.workload.Workload;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Serialises an order record to JSON with Jackson, with one shared ObjectMapper or a new one per
 * call — the classic mistake: a new mapper rebuilds its serializer caches every time. Time per
 * message (the harness) and the message's size. Backs the bundled "serializer" example.
 */
public final class JsonWorkload implements Workload {
  /** An order line. */
  public record Item(String sku, String name, int quantity, long priceCents) {}

  /** The message: an order with its lines. */
  public record Order(String id, String customer, String email, String createdAt, String currency, List<Item> items, long totalCents, boolean gift) {}

  @Override
  public String name() {
    return "json";
  }

  @Override
  public String description() {
    return "Serialise an order record to JSON with Jackson: a shared ObjectMapper or a new one per call";
  }

  @Override
  public String settingsSchema() {
    return """
        {"type": "object", "additionalProperties": false, "properties": {
          "mapper": {"enum": ["shared", "new-per-call"], "default": "shared", "description": "One ObjectMapper for every call, or a new one per call"},
          "items": {"type": "integer", "minimum": 0, "maximum": 100000, "default": 10, "description": "Order lines in the message"},
          "seed": {"type": "integer", "minimum": 0, "default": 1, "description": "Seed of the generated order: the same seed, the same message"}
        }}""";
  }

  @Override
  public MetricSpec operationTime() {
    return new MetricSpec("serialize_time", "us", Direction.LOWER_IS_BETTER, "Time to serialise one message");
  }

  @Override
  public List<MetricSpec> metrics() {
    return List.of(new MetricSpec("message_bytes", "B", Direction.LOWER_IS_BETTER, "Size of the serialised message"));
  }

  /** The same order for the same seed and size. */
  public static Order order(int items, long seed) {
    Random random = new Random(seed);
    List<Item> lines = new ArrayList<>();
    long total = 0;
    for (int i = 0; i < items; i++) {
      Item item = new Item("SKU-" + (10000 + random.nextInt(90000)), "Product " + (char) ('A' + random.nextInt(26)) + random.nextInt(1000), 1 + random.nextInt(5), 99 + random.nextInt(20000));
      total += item.priceCents() * item.quantity();
      lines.add(item);
    }
    return new Order("ord_" + Long.toHexString(random.nextLong()), "Customer " + random.nextInt(100000), "customer" + random.nextInt(100000) + "@example.com",
        "2026-11-24T15:00:0" + random.nextInt(10) + "Z", "EUR", lines, total, random.nextBoolean());
  }

  @Override
  public Benchmark prepare(JsonNode settings) {
    boolean shared = settings.path("mapper").asText("shared").equals("shared");
    Order order = order(settings.path("items").asInt(10), settings.path("seed").asLong(1));
    ObjectMapper sharedMapper = new ObjectMapper();
    return new Benchmark() {
      private long calls;
      private int length;

      @Override
      public void operation(Blackhole blackhole) throws Exception {
        ObjectMapper mapper = shared ? sharedMapper : new ObjectMapper();
        byte[] message = mapper.writeValueAsBytes(order);
        length = message.length;
        calls++;
        blackhole.consume(message);
      }

      @Override
      public void report(Recorder recorder) {
        recorder.summary("message_bytes", Summary.constant(Math.max(1, calls), length));
        recorder.environment("serializer", "jackson-databind " + PackageVersion.VERSION + (shared ? ", shared ObjectMapper" : ", new ObjectMapper per call"));
      }
    };
  }
}
