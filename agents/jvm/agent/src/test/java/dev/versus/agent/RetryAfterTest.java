package dev.versus.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.versus.agent.api.ApiClient;
import dev.versus.agent.api.RetryPolicy;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The client against the fake job API: a 503 with Retry-After (the server's database restarting) is retried no sooner than it asks. */
class RetryAfterTest extends AgainstFakeJobApi {
  @Test
  void a503WaitsTheServersRetryAfterBeforeTheNextTry() throws Exception {
    AtomicInteger heartbeats = new AtomicInteger();
    api.answer(call -> call.action().equals("heartbeat") && heartbeats.incrementAndGet() == 1
        ? new FakeJobApi.Answer(503, "{\"error\":{\"code\":\"UNAVAILABLE\",\"message\":\"The database is unavailable right now\"}}", "1")
        : null);
    List<String> lines = new ArrayList<>();
    Map<ApiClient.CallName, RetryPolicy> quick = new EnumMap<>(ApiClient.CallName.class);
    ApiClient.defaultPolicies().forEach((call, policy) -> quick.put(call, new RetryPolicy(policy.attempts(), 1, 2)));
    ApiClient client = new ApiClient(api.url(), "test", TestLogs.to(lines::add), quick);
    client.setCredential(FakeJobApi.CREDENTIAL);

    client.heartbeat(ApiClient.JSON.createObjectNode(), new Signal());

    assertEquals(2, api.calls("heartbeat").size());
    String retry = lines.stream().filter(line -> line.contains("event=api.retry")).findFirst().orElseThrow();
    // The policy's backoff is a millisecond or two; the server asked for a second.
    assertTrue(retry.contains("call=heartbeat attempt=1 delay_ms=1000 "), retry);
  }
}
