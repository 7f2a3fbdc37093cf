// Backoff delays and which errors are retried.
import { describe, expect, it } from "vitest";
import { ConflictError, errorForResponse, NotFoundError, RejectedError, UnauthorizedError, UnavailableError } from "./errors";
import { backoffDelay, withRetry } from "./retry";

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
    const attempt = withRetry({ attempts: Infinity, baseDelayMs: 60_000, maxDelayMs: 60_000 }, () => {
      calls++;
      return Promise.reject(new UnavailableError("x", 503, "down"));
    }, { signal: controller.signal });
    controller.abort();
    await expect(attempt).rejects.toBeInstanceOf(UnavailableError);
    expect(calls).toBe(1);
  });
});
