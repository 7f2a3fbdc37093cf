package dev.versus.workloads;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.versus.workload.SettingsException;
import org.junit.jupiter.api.Test;

class JsonWorkloadTest {
  @Test
  void aSharedMapperAndANewOneWriteTheSameMessage() throws Exception {
    ObjectNode shared = Runs.run(new JsonWorkload(), "{\"mapper\": \"shared\", \"items\": 10, " + Runs.BRIEF + "}");
    ObjectNode fresh = Runs.run(new JsonWorkload(), "{\"mapper\": \"new-per-call\", \"items\": 10, " + Runs.BRIEF + "}");
    long size = Runs.metric(shared, "message_bytes").get("summary").get("mean").asLong();
    assertEquals(size, Runs.metric(fresh, "message_bytes").get("summary").get("mean").asLong());
    assertEquals(size, Runs.MAPPER.writeValueAsBytes(JsonWorkload.order(10, 1)).length);
    assertTrue(size > 500, "ten order lines: " + size);
    assertEquals("us", Runs.metric(shared, "serialize_time").get("unit").asText());
    assertTrue(fresh.get("environment").get("serializer").asText().contains("new ObjectMapper per call"));
  }

  @Test
  void anUnknownMapperNamesMapper() {
    SettingsException e = assertThrows(SettingsException.class, () -> Runs.run(new JsonWorkload(), "{\"mapper\": \"pooled\"}"));
    assertEquals("mapper", e.field());
  }
}
