package dev.versus.workloads.kafka;

import org.apache.kafka.common.serialization.Serializer;
import org.springframework.kafka.support.serializer.JsonSerializer;

/**
 * {@code SPRING_JSON}: Spring Kafka's JsonSerializer as an application gets it with no mapper of
 * its own: Spring's ObjectMapper (JacksonUtils.enhancedObjectMapper: java.time through
 * JavaTimeModule, Jackson's default of dates as numeric timestamps, here seconds.nanoseconds of a
 * fixed width), adding the {@code __TypeId__} header of each record as it does by default.
 * Spring Kafka 4 deprecates it for JacksonJsonSerializer (Jackson 3); the write-up measured this one.
 */
public final class SpringJsonSerializer implements EventSerializer {
  @Override
  public String name() {
    return "SPRING_JSON";
  }

  @Override
  public String description() {
    return "Spring Kafka's JsonSerializer with Spring's ObjectMapper, dates as numeric timestamps";
  }

  @Override
  @SuppressWarnings({"deprecation", "removal"})
  public Serializer<OrderEvent> create() {
    return new JsonSerializer<>();
  }
}
