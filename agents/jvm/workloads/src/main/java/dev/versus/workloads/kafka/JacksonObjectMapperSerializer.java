package dev.versus.workloads.kafka;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Serializer;

/**
 * {@code JACKSON_OBJECT_MAPPER}: one Jackson ObjectMapper writing the event to bytes, set up as
 * Spring Boot sets up its own mapper (and as most services do): java.time types through
 * JavaTimeModule, dates as ISO-8601 strings.
 */
public final class JacksonObjectMapperSerializer implements EventSerializer {
  /** The mapper this serializer writes with. */
  public static ObjectMapper mapper() {
    return JsonMapper.builder().addModule(new JavaTimeModule()).disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS).build();
  }

  @Override
  public String name() {
    return "JACKSON_OBJECT_MAPPER";
  }

  @Override
  public String description() {
    return "Jackson's ObjectMapper (writeValueAsBytes), java.time dates as ISO-8601 strings";
  }

  @Override
  public Serializer<OrderEvent> create() {
    ObjectMapper mapper = mapper();
    return (topic, event) -> {
      try {
        return mapper.writeValueAsBytes(event);
      } catch (JsonProcessingException e) {
        throw new SerializationException("JACKSON_OBJECT_MAPPER: " + e.getOriginalMessage(), e);
      }
    };
  }
}
