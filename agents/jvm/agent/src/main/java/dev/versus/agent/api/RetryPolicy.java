package dev.versus.agent.api;

import dev.versus.agent.Signal;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.DoubleSupplier;

/**
 * How one call is retried on {@link ApiException.Unavailable}: exponential backoff with jitter,
 * never sooner than the server's Retry-After (a 503 while its database restarts says when), up
 * to {@code attempts} in all (Integer.MAX_VALUE retries until the agent stops). Anything else
 * (401, 409, 4xx) is an answer, not an outage, and goes straight back to the caller.
 */
public record RetryPolicy(int attempts, long baseDelayMs, long maxDelayMs) {
  public static final int FOREVER = Integer.MAX_VALUE;
  /** Longest Retry-After honoured: a wrong header must not park a call for hours. */
  public static final long MAX_RETRY_AFTER_MS = 5 * 60_000L;

  /** The delay before retry number {@code retry} (0-based): half fixed, half random ("equal jitter"). */
  public long delayMs(int retry, DoubleSupplier random) {
    double ceiling = Math.min(maxDelayMs, baseDelayMs * Math.pow(2, Math.min(retry, 30)));
    return Math.round(ceiling / 2 + random.getAsDouble() * (ceiling / 2));
  }

  /** The delay before retry number {@code retry} after {@code error}: the backoff, or the server's Retry-After when longer. */
  public long delayMs(int retry, DoubleSupplier random, ApiException.Unavailable error) {
    return Math.max(delayMs(retry, random), error.retryAfterMs());
  }

  /** A Retry-After header (whole seconds, or an HTTP date) as milliseconds from {@code now}, at most MAX_RETRY_AFTER_MS; 0 when absent or unreadable. */
  public static long parseRetryAfter(String header, Instant now) {
    String text = header == null ? "" : header.trim();
    long ms;
    if (text.matches("[0-9]+")) {
      // More digits than a long holds is a long wait too.
      ms = text.length() > 12 ? MAX_RETRY_AFTER_MS : Long.parseLong(text) * 1000;
    } else {
      try {
        ms = ZonedDateTime.parse(text, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant().toEpochMilli() - now.toEpochMilli();
      } catch (DateTimeParseException unreadable) {
        return 0;
      }
    }
    return Math.min(Math.max(ms, 0), MAX_RETRY_AFTER_MS);
  }

  /** Called before each retry. */
  public interface RetryListener {
    void retrying(ApiException error, int attempt, long delayMs);
  }

  /** One call of the API. */
  public interface Call<T> {
    T attempt() throws ApiException;
  }

  /** Runs the call, retrying outages; gives up (throwing the last outage) once until fires. */
  public <T> T run(Call<T> call, Signal until, RetryListener listener) throws ApiException {
    for (int attempt = 1; ; attempt++) {
      try {
        return call.attempt();
      } catch (ApiException.Unavailable error) {
        if (attempt >= attempts || until.fired()) throw error;
        long delay = delayMs(attempt - 1, () -> ThreadLocalRandom.current().nextDouble(), error);
        listener.retrying(error, attempt, delay);
        if (until.sleep(delay)) throw error;
      }
    }
  }
}
