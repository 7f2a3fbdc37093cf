package dev.versus.agent.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import org.junit.jupiter.api.Test;

class ProbeSpecTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private static String refusal(String probes) {
    return assertThrows(IllegalArgumentException.class, () -> ProbeSpec.parseAll(JSON.readTree(probes))).getMessage();
  }

  @Test
  void defaultsAreOneSecondNotRequiredAndTheProcessPreset() throws Exception {
    List<ProbeSpec> specs = ProbeSpec.parseAll(JSON.readTree("[{\"name\":\"app-1\",\"kind\":\"prometheus\",\"url\":\"http://127.0.0.1:8081/actuator/prometheus\"},{\"name\":\"db\",\"kind\":\"process\",\"match\":{\"name\":\"postgres\"},\"required\":true,\"intervalSeconds\":2}]"));
    assertEquals(1.0, specs.get(0).intervalSeconds());
    assertEquals(List.of("process"), specs.get(0).presets());
    assertEquals(false, specs.get(0).required());
    assertEquals("postgres", specs.get(1).processName());
    assertEquals(true, specs.get(1).required());
    assertEquals(List.of(), ProbeSpec.parseAll(JSON.readTree("null")));
  }

  @Test
  void aProbeTheAgentCannotHonourIsRefusedNamingTheField() {
    assertEquals("job.probes.0.url: \"ftp://x/metrics\" is not an http(s) URL", refusal("[{\"name\":\"a\",\"kind\":\"prometheus\",\"url\":\"ftp://x/metrics\"}]"));
    assertEquals("job.probes.0.presets: unknown preset \"python\" (valid: process, jvm, go, node)", refusal("[{\"name\":\"a\",\"kind\":\"prometheus\",\"url\":\"http://x/\",\"presets\":[\"python\"]}]"));
    assertEquals("job.probes.0.intervalSeconds: expected a number from 0.1 to 60, got 0.01", refusal("[{\"name\":\"a\",\"kind\":\"prometheus\",\"url\":\"http://x/\",\"intervalSeconds\":0.01}]"));
    assertEquals("job.probes.1.name: \"a\" is used by another probe; names are unique", refusal("[{\"name\":\"a\",\"kind\":\"prometheus\",\"url\":\"http://x/\"},{\"name\":\"a\",\"kind\":\"process\",\"match\":{\"pid\":1}}]"));
    assertEquals("job.probes.0.match: expected exactly one of {\"pid\": 1234}, {\"name\": \"java\"}, {\"pattern\": \"regex\"}, got {\"pid\":1,\"name\":\"java\"}", refusal("[{\"name\":\"a\",\"kind\":\"process\",\"match\":{\"pid\":1,\"name\":\"java\"}}]"));
    assertEquals("job.probes.0.kind: unknown kind \"snmp\" (valid: prometheus, process)", refusal("[{\"name\":\"a\",\"kind\":\"snmp\"}]"));
    assertEquals("job.probes.0.series.0.aggregation: \"p99\" (valid: rate, delta, mean, max, min, last)", refusal("[{\"name\":\"a\",\"kind\":\"prometheus\",\"url\":\"http://x/\",\"series\":[{\"key\":\"k\",\"metric\":\"m\",\"aggregation\":\"p99\",\"unit\":\"s\",\"direction\":\"lower_is_better\"}]}]"));
  }
}
