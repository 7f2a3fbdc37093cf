// Retries a call on UnavailableError (5xx, 429, network) with exponential backoff and jitter,
// and never sooner than the server's Retry-After (a 503 while its database restarts says when).
// Every call has its own policy, sized to what is lost if it gives up: a heartbeat is sent again
// at the next tick anyway, a result must never be given up on. Anything else (401, 409, 4xx) is
// an answer, not an outage, and goes straight back to the caller.
import { isRetryable, UnavailableError } from "./errors";
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

/** Longest Retry-After honoured: a wrong header must not park a call for hours. */
export const MAX_RETRY_AFTER_MS = 5 * 60_000;

/** A Retry-After header (seconds, or an HTTP date) in milliseconds from `now`; undefined when absent or unreadable. */
export function parseRetryAfter(header: string | null | undefined, now = Date.now()): number | undefined {
  if (!header?.trim()) return undefined;
  const text = header.trim();
  // An HTTP date ends in GMT (RFC 9110); anything else but whole seconds is not a Retry-After.
  const ms = /^\d+$/.test(text) ? Number(text) * 1000 : /GMT$/.test(text) ? Date.parse(text) - now : NaN;
  if (!Number.isFinite(ms)) return undefined;
  return Math.min(Math.max(ms, 0), MAX_RETRY_AFTER_MS);
}

/** The wait before retry number `retry` after `error`: the backoff, or the server's Retry-After when longer. */
export function retryDelay(policy: RetryPolicy, retry: number, error: unknown): number {
  const asked = error instanceof UnavailableError ? (error.retryAfterMs ?? 0) : 0;
  return Math.max(backoffDelay(policy, retry), asked);
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
      const delayMs = retryDelay(policy, attempt - 1, error);
      hooks.onRetry?.(error, attempt, delayMs);
      await sleep(delayMs, hooks.signal);
      if (hooks.signal?.aborted) throw error;
    }
  }
}
