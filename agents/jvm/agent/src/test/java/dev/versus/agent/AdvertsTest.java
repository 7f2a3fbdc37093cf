package dev.versus.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.versus.agent.api.ApiClient;
import dev.versus.agent.plugins.Plugins;
import dev.versus.agent.plugins.WorkloadFactory;
import dev.versus.agent.run.HarnessJobRunner;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;

/**
 * The dashboard's tests and its "which agent runs this workload" hints read what this agent
 * advertises from server/workloads/built-in/jvm-workloads.json: it must be what the agent sends.
 */
class AdvertsTest {
  @Test
  void theRepositoryHoldsWhatTheAgentAdvertises() throws Exception {
    JsonNode stored = ApiClient.JSON.readTree(Path.of("..", "..", "..", "server", "workloads", "built-in", "jvm-workloads.json").toFile());
    Logger quiet = TestLogs.to(line -> {});
    Map<String, JsonNode> advertised = new HashMap<>();
    for (JsonNode advert : Adverts.of(new WorkloadFactory(Plugins.load(null, AdvertsTest.class.getClassLoader(), quiet)), new HarnessJobRunner(quiet, true), quiet)) {
      advertised.put(advert.path("name").asText(), advert);
    }
    // The tests' own workloads (echo) are advertised too; every built-in one must be as stored.
    for (JsonNode advert : stored) {
      assertEquals(advert, advertised.get(advert.path("name").asText()), "run server/workloads/built-in/produce.sh from the repository root: " + advert.path("name").asText());
    }
  }
}
