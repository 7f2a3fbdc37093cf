// Backoff delays and which errors are retried.
import { describe, expect, it } from "vitest";
import { ConflictError, errorForResponse, NotFoundError, RejectedError, UnauthorizedError, UnavailableError } from "./errors";
import { backoffDelay, MAX_RETRY_AFTER_MS, parseRetryAfter, retryDelay, withRetry } from "./retry";

describe("backoffDelay", () => {
  const policy = { attempts: Infinity, baseDelayMs: 100, maxDelayMs: 1000 };
  it("doubles up to the ceiling, with half of it random", () => {
    expect([0, 1, 2, 3, 10].map((retry) => backoffDelay(policy, retry, () => 0))).toEqual([50, 100, 200, 400, 500]);
    expect([0, 1, 2, 3, 10].map((retry) => backoffDelay(policy, retry, () => 1))).toEqual([100, 200, 400, 800, 1000]);
  });
});

describe("errorForResponse", () => {
  it("maps statuses onto what the agent does about them", () => {
    expect(errorForResponse("x", 401, undefined)).toBeInstanceOf(UnauthorizedError);
    expect(errorForResponse("x", 404, undefined)).toBeInstanceOf(NotFoundError);
    expect(errorForResponse("x", 409, { message: "taken" })).toBeInstanceOf(ConflictError);
    expect(errorForResponse("x", 409, { message: "taken" }).message).toBe("x: HTTP 409 taken");
    for (const status of [400, 413, 422]) expect(errorForResponse("x", status, undefined)).toBeInstanceOf(RejectedError);
    for (const status of [429, 500, 502, 503]) expect(errorForResponse("x", status, undefined)).toBeInstanceOf(UnavailableError);
  });
});

describe("withRetry", () => {
  const quick = { baseDelayMs: 1, maxDelayMs: 2 };
  it("retries outages up to the policy's attempts", async () => {
    let calls = 0;
    const outage = () => {
      calls++;
      return Promise.reject(new UnavailableError("x", 503, "down"));
    };
    await expect(withRetry({ attempts: 3, ...quick }, outage)).rejects.toBeInstanceOf(UnavailableError);
    expect(calls).toBe(3);
  });

  it("returns the first success", async () => {
    let calls = 0;
    const flaky = async () => {
      if (++calls < 3) throw new UnavailableError("x", 0, "ECONNREFUSED");
      return "ok";
    };
    expect(await withRetry({ attempts: Infinity, ...quick }, flaky)).toBe("ok");
  });

  it("never retries an answer (401, 409, 4xx)", async () => {
    for (const error of [new UnauthorizedError("x", 401, ""), new ConflictError("x", 409, ""), new RejectedError("x", 422, "")]) {
      let calls = 0;
      await expect(
        withRetry({ attempts: Infinity, ...quick }, () => {
          calls++;
          return Promise.reject(error);
        }),
      ).rejects.toBe(error);
      expect(calls).toBe(1);
    }
  });

  it("gives up when its signal aborts", async () => {
    const controller = new AbortController();
    let calls = 0;
    const attempt = withRetry(
      { attempts: Infinity, baseDelayMs: 60_000, maxDelayMs: 60_000 },
      () => {
        calls++;
        return Promise.reject(new UnavailableError("x", 503, "down"));
      },
      { signal: controller.signal },
    );
    controller.abort();
    await expect(attempt).rejects.toBeInstanceOf(UnavailableError);
    expect(calls).toBe(1);
  });
});

describe("Retry-After", () => {
  it("reads seconds and HTTP dates, ignores what it cannot read, and caps what it honours", () => {
    const now = Date.parse("2026-01-01T00:00:00Z");
    expect(parseRetryAfter("5", now)).toBe(5000);
    expect(parseRetryAfter(" 0 ", now)).toBe(0);
    expect(parseRetryAfter("Thu, 01 Jan 2026 00:00:07 GMT", now)).toBe(7000);
    expect(parseRetryAfter("Wed, 31 Dec 2025 23:59:00 GMT", now)).toBe(0); // already past
    expect(parseRetryAfter("86400", now)).toBe(MAX_RETRY_AFTER_MS);
    for (const header of [null, undefined, "", "soon", "-5", "1.5"]) expect(parseRetryAfter(header, now), String(header)).toBeUndefined();
  });

  it("waits the server's Retry-After when it is longer than the backoff, else the backoff", () => {
    const policy = { attempts: Infinity, baseDelayMs: 10, maxDelayMs: 20 };
    const asked = Object.assign(new UnavailableError("x", 503, "down"), { retryAfterMs: 5000 });
    expect(retryDelay(policy, 0, asked)).toBe(5000);
    expect(retryDelay({ ...policy, baseDelayMs: 60_000, maxDelayMs: 60_000 }, 0, asked)).toBeGreaterThanOrEqual(30_000);
    expect(retryDelay(policy, 0, new UnavailableError("x", 0, "ECONNREFUSED"))).toBeLessThanOrEqual(10);
  });

  it("withRetry reports and waits the Retry-After of the error it retries", async () => {
    const delays: number[] = [];
    let calls = 0;
    const answer = await withRetry(
      { attempts: Infinity, baseDelayMs: 1, maxDelayMs: 2 },
      async () => {
        if (++calls === 1) throw Object.assign(new UnavailableError("x", 503, "down"), { retryAfterMs: 40 });
        return "ok";
      },
      { onRetry: (_error, _attempt, delayMs) => delays.push(delayMs) },
    );
    expect(answer).toBe("ok");
    expect(delays).toEqual([40]);
  });
});
