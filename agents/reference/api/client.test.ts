// The client against the fake job API over real HTTP: a 503 with Retry-After (what the server
// answers while its database restarts) is retried no sooner than the header says.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createLogger } from "../log";
import { FakeApi } from "../test/fake-api";
import { ApiClient, defaultRetryPolicies } from "./client";
import { UnavailableError } from "./errors";

let api: FakeApi;
beforeEach(async () => {
  api = await new FakeApi().start();
});
afterEach(() => api.close());

function client(lines: string[]) {
  const quick = { attempts: 2, baseDelayMs: 1, maxDelayMs: 2 };
  return new ApiClient({
    baseUrl: api.url,
    userAgent: "test",
    log: createLogger((line) => lines.push(line)),
    retryPolicies: { ...defaultRetryPolicies, register: quick },
  });
}

describe("ApiClient on 503", () => {
  it("waits the server's Retry-After before trying again, and says so", async () => {
    api.down = true;
    api.retryAfter = "1";
    const lines: string[] = [];
    const error = await client(lines)
      .register(api.enrollmentToken, { name: "a", kind: "other", capabilities: [], labels: {}, version: "test", workloads: [], environment: {} })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnavailableError);
    expect((error as UnavailableError).retryAfterMs).toBe(1000);
    expect(api.callsTo("/agents/register").map((call) => call.status)).toEqual([503, 503]);
    const retry = lines.find((line) => line.includes("event=api.retry"));
    expect(retry).toContain("call=register");
    expect(Number(/delay_ms=(\d+)/.exec(retry ?? "")?.[1])).toBe(1000);
  });

  it("without Retry-After, backs off as its policy says", async () => {
    api.down = true;
    const lines: string[] = [];
    await client(lines)
      .register(api.enrollmentToken, { name: "a", kind: "other", capabilities: [], labels: {}, version: "test", workloads: [], environment: {} })
      .catch(() => undefined);
    expect(Number(/delay_ms=(\d+)/.exec(lines.find((line) => line.includes("event=api.retry")) ?? "")?.[1])).toBeLessThanOrEqual(2);
  });
});
