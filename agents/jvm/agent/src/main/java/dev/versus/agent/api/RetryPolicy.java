package dev.versus.agent.api;

import dev.versus.agent.Signal;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.DoubleSupplier;

/**
 * How one call is retried on {@link ApiException.Unavailable}: exponential backoff with jitter,
 * up to {@code attempts} in all (Integer.MAX_VALUE retries until the agent stops). Anything else
 * (401, 409, 4xx) is an answer, not an outage, and goes straight back to the caller.
 */
public record RetryPolicy(int attempts, long baseDelayMs, long maxDelayMs) {
  public static final int FOREVER = Integer.MAX_VALUE;

  /** The delay before retry number {@code retry} (0-based): half fixed, half random ("equal jitter"). */
  public long delayMs(int retry, DoubleSupplier random) {
    double ceiling = Math.min(maxDelayMs, baseDelayMs * Math.pow(2, Math.min(retry, 30)));
    return Math.round(ceiling / 2 + random.getAsDouble() * (ceiling / 2));
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
        long delay = delayMs(attempt - 1, () -> ThreadLocalRandom.current().nextDouble());
        listener.retrying(error, attempt, delay);
        if (until.sleep(delay)) throw error;
      }
    }
  }
}
