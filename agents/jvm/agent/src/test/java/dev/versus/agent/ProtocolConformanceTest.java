package dev.versus.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.versus.agent.api.ApiClient;
import dev.versus.agent.api.ApiException;
import dev.versus.agent.api.HeartbeatAnswer;
import dev.versus.agent.api.Job;
import dev.versus.agent.api.Registration;
import dev.versus.agent.api.RetryPolicy;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The agent reads only what the server answers: each answer is built from its schema in
 * docs/openapi.json (the document the server generates; every property filled in), goes through
 * the agent's own reading code, and every property that code asks for must be one the schema
 * has. A property the server renamed or dropped fails here, naming it. (What the agent sends is
 * checked on every call its tests make: {@link FakeJobApi#close}.)
 */
class ProtocolConformanceTest extends AgainstFakeJobApi {
  private final ProtocolDocument doc = ProtocolDocument.load();
  @TempDir Path dir;

  private ApiClient client() {
    Map<ApiClient.CallName, RetryPolicy> once = new EnumMap<>(ApiClient.CallName.class);
    for (ApiClient.CallName call : ApiClient.CallName.values()) once.put(call, new RetryPolicy(1, 1, 1));
    ApiClient client = new ApiClient(api.url(), "conformance", TestLogs.to(line -> {}), once);
    client.setCredential(FakeJobApi.CREDENTIAL);
    return client;
  }

  /** The schema's answer for a call (action) and status, served by the fake. */
  private JsonNode serve(String action, String path, String status) {
    JsonNode answer = doc.sample(doc.responseSchema(path, status));
    api.answer(call -> call.action().equals(action) ? new FakeJobApi.Answer(Integer.parseInt(status), answer.toString()) : null);
    return answer;
  }

  /** Runs the agent's code on the served answer; asserts it read something, and only what the schema has. */
  private void readsOnlyTheSchema(String path, String status, JsonNode answer, ThrowingRunnable code) throws Exception {
    JsonNode schema = doc.responseSchema(path, status);
    Set<String> reads;
    Exception failed = null;
    try (ReadRecorder recorder = new ReadRecorder()) {
      try {
        code.run();
      } catch (Exception e) {
        failed = e; // a reader that gave up on a missing property: name the property first
      }
      reads = recorder.readsOf(answer);
    }
    assertFalse(reads.isEmpty(), "the agent read nothing of the answer to POST " + path + ": is the recorder on its parsing?");
    List<String> problems = new ArrayList<>();
    for (String read : reads) doc.missing(schema, read).ifPresent(missing -> problems.add(read + ": " + missing));
    assertEquals(List.of(), problems, "the agent reads properties the " + status + " answer to POST " + path + " does not have (" + doc.file + ")");
    if (failed != null) throw failed;
  }

  interface ThrowingRunnable {
    void run() throws Exception;
  }

  private static ObjectNode object(String json) throws Exception {
    return (ObjectNode) ApiClient.JSON.readTree(json);
  }

  @Test
  void register() throws Exception {
    String path = "/api/v1/agents/register";
    JsonNode answer = serve("register", path, "201");
    Registration[] got = new Registration[1];
    readsOnlyTheSchema(path, "201", answer, () -> got[0] = client().register(FakeJobApi.TOKEN, object("{\"name\":\"conformance\",\"kind\":\"jvm\",\"version\":\"1\"}"), new Signal()));
    assertEquals(answer.at("/credential").asText(), got[0].credential());
    assertEquals(answer.at("/agent/id").asText(), got[0].agentId());
    assertEquals(answer.at("/leaseSeconds").asInt(), got[0].leaseSeconds());
  }

  @Test
  void heartbeat() throws Exception {
    String path = "/api/v1/agents/heartbeat";
    JsonNode answer = serve("heartbeat", path, "200");
    HeartbeatAnswer[] got = new HeartbeatAnswer[1];
    readsOnlyTheSchema(path, "200", answer, () -> got[0] = client().heartbeat(object("{\"runningJobIds\":[]}"), new Signal()));
    assertEquals(List.of(answer.at("/cancelJobIds/0").asText()), got[0].cancelJobIds());
    assertTrue(got[0].stop());
  }

  @Test
  void claim() throws Exception {
    String path = "/api/v1/jobs/claim";
    JsonNode answer = serve("claim", path, "200");
    Job[] got = new Job[1];
    readsOnlyTheSchema(path, "200", answer, () -> got[0] = client().claim(0, new Signal()).orElseThrow());
    assertEquals(answer.at("/job/id").asText(), got[0].id());
    assertEquals(answer.at("/job/leaseToken").asText(), got[0].leaseToken());
    assertEquals(answer.at("/job/workload/name").asText(), got[0].workloadName());
    assertEquals(answer.at("/job/metrics/0/key").asText(), got[0].metrics().get(0).key());
  }

  @Test
  void lease() throws Exception {
    String path = "/api/v1/jobs/{id}/lease";
    JsonNode answer = serve("lease", path, "200");
    boolean[] cancel = new boolean[1];
    readsOnlyTheSchema(path, "200", answer, () -> cancel[0] = client().renewLease("job1", "vlease_job1", new Signal()));
    assertTrue(cancel[0], "cancelRequested is true in the answer");
  }

  @Test
  void complete() throws Exception {
    for (String status : List.of("201", "200")) {
      String path = "/api/v1/jobs/{id}/complete";
      JsonNode answer = serve("complete", path, status);
      Uploader uploader = new Uploader(client(), new ResultBuffer(dir.resolve("buffer-" + status)), TestLogs.to(line -> {}), unauthorized -> {});
      JsonNode run = object("{\"startedAt\":\"2030-01-01T00:00:00Z\",\"finishedAt\":\"2030-01-01T00:00:01Z\",\"metrics\":[{\"key\":\"op_time\",\"value\":1}]}");
      readsOnlyTheSchema(path, status, answer, () -> assertEquals(Uploader.Delivery.DELIVERED, uploader.submit(ResultBuffer.complete("job1", "vlease_job1", run), new Signal())));
    }
  }

  @Test
  void fail() throws Exception {
    String path = "/api/v1/jobs/{id}/fail";
    JsonNode answer = serve("fail", path, "200");
    Uploader uploader = new Uploader(client(), new ResultBuffer(dir.resolve("buffer")), TestLogs.to(line -> {}), unauthorized -> {});
    readsOnlyTheSchema(path, "200", answer, () -> assertEquals(Uploader.Delivery.DELIVERED, uploader.submit(ResultBuffer.fail("job1", "vlease_job1", "it broke", "last lines", true, false), new Signal())));
  }

  @Test
  void release() throws Exception {
    String path = "/api/v1/jobs/{id}/release";
    JsonNode answer = serve("release", path, "200");
    String[] status = new String[1];
    readsOnlyTheSchema(path, "200", answer, () -> status[0] = client().release("job1", "vlease_job1", new Signal()));
    assertEquals(answer.at("/status").asText(), status[0]);
  }

  /** A refused call: the error body's code and message (here a lease that is not ours any more). */
  @Test
  void errors() throws Exception {
    String path = "/api/v1/jobs/{id}/lease";
    JsonNode answer = serve("lease", path, "409");
    ApiException.Conflict[] conflict = new ApiException.Conflict[1];
    readsOnlyTheSchema(path, "409", answer, () -> conflict[0] = assertThrows(ApiException.Conflict.class, () -> client().renewLease("job1", "vlease_job1", new Signal())));
    assertEquals(answer.at("/error/message").asText(), conflict[0].serverMessage());
  }

  /** The checker itself: a body with an unknown, a missing and a wrong value is refused for each. */
  @Test
  void aBodyTheServerWouldNotTakeIsNamed() throws Exception {
    List<String> problems = doc.problems("/api/v1/jobs/job1/fail", object("{\"leaseToken\":\"vlease_1\",\"retryable\":\"yes\",\"noSuchProperty\":\"x\"}"));
    assertEquals(3, problems.size(), String.valueOf(problems));
    assertTrue(problems.stream().anyMatch(p -> p.contains("error")), String.valueOf(problems));
    assertTrue(problems.stream().anyMatch(p -> p.contains("retryable")), String.valueOf(problems));
    assertTrue(problems.stream().anyMatch(p -> p.contains("noSuchProperty")), String.valueOf(problems));
    assertEquals(List.of(), doc.problems("/api/v1/jobs/job1/fail", object("{\"leaseToken\":\"vlease_1\",\"error\":\"it broke\"}")));
    assertEquals(1, doc.problems("/api/v1/jobs/claim?wait=1&patience=3", object("{}")).size(), "an unknown query parameter");
  }
}
