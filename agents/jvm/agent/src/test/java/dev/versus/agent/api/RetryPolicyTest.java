package dev.versus.agent.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RetryPolicyTest {
  @Test
  void retryAfterIsReadAsSecondsOrAnHttpDateAndBounded() {
    Instant now = Instant.parse("2026-01-01T00:00:00Z");
    Map<String, Long> expected = new LinkedHashMap<>();
    expected.put("5", 5_000L);
    expected.put(" 0 ", 0L);
    expected.put("Thu, 01 Jan 2026 00:00:07 GMT", 7_000L);
    expected.put("Wed, 31 Dec 2025 23:59:00 GMT", 0L); // already past
    expected.put("86400", RetryPolicy.MAX_RETRY_AFTER_MS);
    expected.put("99999999999999999999999", RetryPolicy.MAX_RETRY_AFTER_MS);
    expected.put("", 0L);
    expected.put(null, 0L);
    expected.put("soon", 0L);
    expected.put("-5", 0L);
    expected.put("1.5", 0L);
    expected.forEach((header, ms) -> assertEquals(ms, RetryPolicy.parseRetryAfter(header, now), "Retry-After " + header));
  }

  @Test
  void theDelayIsTheLongerOfBackoffAndRetryAfter() {
    var asked = (ApiException.Unavailable) ApiException.forResponse("claim", 503, JsonNodeFactory.instance.objectNode().put("message", "down"), 3_000);
    var quick = new RetryPolicy(5, 1, 2);
    assertEquals(3_000, quick.delayMs(0, () -> 1.0, asked));
    assertTrue(new RetryPolicy(5, 60_000, 60_000).delayMs(0, () -> 0.0, asked) >= 30_000);
    assertTrue(quick.delayMs(0, () -> 1.0, new ApiException.Unavailable("claim", 0, "refused")) <= 2);
  }
}
