// Retries a call on UnavailableError (5xx, 429, network) with exponential backoff and jitter.
// Every call has its own policy, sized to what is lost if it gives up: a heartbeat is sent again
// at the next tick anyway, a result must never be given up on. Anything else (401, 409, 4xx) is
// an answer, not an outage, and goes straight back to the caller.
import { isRetryable } from "./errors";
import { sleep } from "../timing";

export interface RetryPolicy {
  /** Attempts in all, the first included; Infinity retries until the signal aborts. */
  attempts: number;
  /** Delay before the first retry; it doubles on each retry up to maxDelayMs. */
  baseDelayMs: number;
  maxDelayMs: number;
}

/** The delay before retry number `retry` (0-based): half fixed, half random ("equal jitter"). */
export function backoffDelay(policy: RetryPolicy, retry: number, random = Math.random): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.min(retry, 30));
  return ceiling / 2 + random() * (ceiling / 2);
}

export interface RetryHooks {
  signal?: AbortSignal;
  onRetry?: (error: unknown, attempt: number, delayMs: number) => void;
}

export async function withRetry<T>(policy: RetryPolicy, fn: () => Promise<T>, hooks: RetryHooks = {}): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (error) {
      if (!isRetryable(error) || attempt >= policy.attempts || hooks.signal?.aborted) throw error;
      const delayMs = backoffDelay(policy, attempt - 1);
      hooks.onRetry?.(error, attempt, delayMs);
      await sleep(delayMs, hooks.signal);
      if (hooks.signal?.aborted) throw error;
    }
  }
}
