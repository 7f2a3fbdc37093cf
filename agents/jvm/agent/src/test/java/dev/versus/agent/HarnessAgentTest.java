package dev.versus.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.versus.agent.api.ApiClient;
import dev.versus.agent.run.HarnessJobRunner;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;

/** The agent with the real harness and built-in workloads (a forked JVM per run), against the fake API. */
class HarnessAgentTest extends AgainstFakeJobApi {
  @TempDir Path dir;

  private static final String TINY = "\"steadyState\":false,\"warmupIterations\":1,\"iterations\":2,\"operationsPerIteration\":50";

  @Test
  void runsTheJsonWorkloadInAForkAndCompletesWithItsMetrics() throws Exception {
    api.enqueue("job1", "json", ApiClient.JSON.readTree("{\"mapper\":\"new-per-call\",\"items\":3," + TINY + "}"), 60, "serialize_time", "us", "message_bytes", "B", "alloc_per_op", "B");
    Logger quiet = TestLogs.silent();
    try (TestAgent agent = new TestAgent(TestAgent.config(api, dir, FakeJobApi.TOKEN, 0), new HarnessJobRunner(quiet, true))) {
      FakeJobApi.Call complete = api.await("complete");
      JsonNode metrics = complete.body().path("run").path("metrics");
      assertEquals(3, metrics.size(), metrics.toString());
      assertEquals("serialize_time", metrics.get(0).path("key").asText());
      assertTrue(metrics.get(0).path("histogram").isTextual() || metrics.get(0).path("samples").isArray() || metrics.get(0).path("summary").isObject(), metrics.get(0).toString());
      assertTrue(metrics.get(1).toString().contains("message_bytes"));
      assertEquals("jvm", complete.body().path("run").path("environment").path("agent").path("kind").asText());
      assertEquals(0, agent.stop());
    }
    JsonNode advertised = api.calls("register").get(0).body().path("workloads");
    boolean json = false;
    for (JsonNode workload : advertised) {
      if (workload.path("name").asText().equals("json")) {
        json = true;
        // The harness's common settings are advertised next to the workload's own.
        assertTrue(workload.path("settingsSchema").path("properties").has("iterations"));
        assertTrue(workload.path("settingsSchema").path("properties").has("mapper"));
      }
    }
    assertTrue(json, advertised.toString());
  }

  @Test
  void aSettingTheSchemaRefusesFailsTheJobNamingIt() throws Exception {
    api.enqueue("job1", "json", ApiClient.JSON.readTree("{\"mapper\":\"sometimes\"," + TINY + "}"), 60, "serialize_time", "us");
    try (TestAgent agent = new TestAgent(TestAgent.config(api, dir, FakeJobApi.TOKEN, 0), new HarnessJobRunner(TestLogs.silent(), true))) {
      FakeJobApi.Call fail = api.await("fail");
      String error = fail.body().path("error").asText();
      assertTrue(error.startsWith("bad settings for workload \"json\": settings.mapper"), error);
      assertFalse(fail.body().path("retryable").asBoolean());
      assertEquals(0, agent.stop());
    }
  }

  @Test
  void aCancelStopsTheForkedRunAndIsAcknowledged() throws Exception {
    // Long enough that only the cancel ends it: 1,000 iterations of 1 s.
    api.enqueue("job1", "json", ApiClient.JSON.readTree("{\"steadyState\":false,\"iterations\":1000,\"iterationTime\":1000}"), 1, "serialize_time", "us");
    api.answer(call -> call.action().equals("lease") ? new FakeJobApi.Answer(200, "{\"cancelRequested\":true}") : null);
    try (TestAgent agent = new TestAgent(TestAgent.config(api, dir, FakeJobApi.TOKEN, 0), new HarnessJobRunner(TestLogs.silent(), true))) {
      FakeJobApi.Call fail = api.await("fail");
      assertTrue(fail.body().path("cancelled").asBoolean(), fail.body().toString());
      assertEquals(0, agent.stop());
    }
    assertEquals(0, api.calls("complete").size());
  }
}
