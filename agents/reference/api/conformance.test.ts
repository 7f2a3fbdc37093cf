// The agent reads only what the server answers: each answer is built from its schema in
// docs/openapi.json (the document the server generates; every property filled in), served over
// real HTTP, and read by the client's own code; every property that code asks for must be one the
// schema has, so a property the server renamed or dropped fails here, naming it. What the agent
// sends is checked on every call its tests make (test/fake-api.ts, FakeApi.close).
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createLogger } from "../log";
import { documentFile, missing, requestProblems, responseSchema, sample } from "../test/protocol-document";
import { ApiClient, defaultRetryPolicies, type CallName } from "./client";
import { ConflictError } from "./errors";

/** Properties no answer is asked for but JavaScript itself reads (awaiting a value reads `then`). */
const notFields = new Set(["then", "toJSON", ...Object.getOwnPropertyNames(Object.prototype)]);

/** The value, with every property read from it (at any depth) added to reads as its path. */
function recording(value: unknown, at: string[], reads: string[][]): unknown {
  if (value === null || typeof value !== "object") return value;
  return new Proxy(value, {
    get(target, key, receiver) {
      const child: unknown = Reflect.get(target, key, receiver);
      if (typeof key !== "string" || notFields.has(key) || (Array.isArray(target) && !/^\d+$/.test(key))) return child;
      reads.push([...at, key]);
      return recording(child, [...at, key], reads);
    },
  });
}

/** The value at a path of keys. */
const at = (value: unknown, ...keys: string[]): unknown => keys.reduce<unknown>((inner, key) => (inner as Record<string, unknown> | undefined)?.[key], value);

let server: http.Server | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  if (server) await new Promise((resolve) => server!.close(resolve));
  server = undefined;
});

/**
 * Serves the schema's answer for POST `template` with `status` to every request, runs `code` with
 * a client of that server, and returns what the client's code read from the answer.
 */
async function readsOf<T>(template: string, status: string, code: (client: ApiClient) => Promise<T>) {
  const answer = sample(responseSchema(template, status));
  const text = JSON.stringify(answer);
  server = http.createServer((req, res) => {
    req.resume();
    res.writeHead(Number(status), { "content-type": "application/json" }).end(text);
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  const once = Object.fromEntries(Object.keys(defaultRetryPolicies).map((call) => [call, { attempts: 1, baseDelayMs: 1, maxDelayMs: 1 }])) as Record<
    CallName,
    { attempts: number; baseDelayMs: number; maxDelayMs: number }
  >;
  const client = new ApiClient({
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    credential: "vsag_test",
    userAgent: "conformance",
    log: createLogger(() => {}),
    retryPolicies: once,
  });
  const reads: string[][] = [];
  const parse = JSON.parse;
  vi.spyOn(JSON, "parse").mockImplementation((source: string, reviver?: (this: unknown, key: string, value: unknown) => unknown) => {
    const value: unknown = parse(source, reviver);
    return source === text ? recording(value, [], reads) : value;
  });
  const outcome: { value?: T; error?: unknown } = await code(client).then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  vi.restoreAllMocks();
  const schema = responseSchema(template, status);
  const problems = [
    ...new Set(
      reads
        .map((steps) => [steps.join("."), missing(schema, steps)] as const)
        .filter(([, problem]) => problem)
        .map(([read, problem]) => `${read}: ${problem}`),
    ),
  ];
  expect(reads.length, `the client read nothing of the answer to POST ${template}: is the recorder on its parsing?`).toBeGreaterThan(0);
  expect(problems, `the client reads properties the ${status} answer to POST ${template} does not have (${documentFile})`).toEqual([]);
  return { answer, ...outcome };
}

describe("the reference agent's client reads only what docs/openapi.json answers", () => {
  it("register", async () => {
    const { answer, value, error } = await readsOf("/api/v1/agents/register", "201", (client) =>
      client.register("venr_test", { name: "a", kind: "other", version: "1", capabilities: [], labels: {}, workloads: [], environment: {} }),
    );
    expect(error).toBeUndefined();
    expect(value?.credential).toBe(at(answer, "credential"));
  });

  it("heartbeat", async () => {
    const { answer, value, error } = await readsOf("/api/v1/agents/heartbeat", "200", (client) => client.heartbeat({ runningJobIds: [] }));
    expect(error).toBeUndefined();
    expect(value).toMatchObject({ cancelJobIds: at(answer, "cancelJobIds"), stop: true });
  });

  it("claim", async () => {
    const { answer, value, error } = await readsOf("/api/v1/jobs/claim", "200", (client) => client.claim(0));
    expect(error).toBeUndefined();
    expect(value).toMatchObject({ id: at(answer, "job", "id"), leaseToken: at(answer, "job", "leaseToken") });
  });

  it("lease", async () => {
    const { value, error } = await readsOf("/api/v1/jobs/{id}/lease", "200", (client) => client.renewLease("job1", "vlease_1"));
    expect(error).toBeUndefined();
    expect(value?.cancelRequested).toBe(true);
  });

  it.each(["201", "200"])("complete (%s)", async (status) => {
    const run = { startedAt: "2030-01-01T00:00:00Z", finishedAt: "2030-01-01T00:00:01Z", environment: {}, metrics: [{ key: "op_time", value: 1 }] };
    const { answer, value, error } = await readsOf("/api/v1/jobs/{id}/complete", status, (client) => client.complete("job1", "vlease_1", run));
    expect(error).toBeUndefined();
    expect(value?.run?.id).toBe(at(answer, "run", "id"));
  });

  it("fail", async () => {
    const { answer, value, error } = await readsOf("/api/v1/jobs/{id}/fail", "200", (client) =>
      client.fail("job1", { leaseToken: "vlease_1", error: "it broke", retryable: true, cancelled: false }),
    );
    expect(error).toBeUndefined();
    expect(value?.status).toBe(at(answer, "status"));
  });

  it("release", async () => {
    const { answer, value, error } = await readsOf("/api/v1/jobs/{id}/release", "200", (client) => client.release("job1", "vlease_1"));
    expect(error).toBeUndefined();
    expect(value?.status).toBe(at(answer, "status"));
  });

  it("an error (a lease that is not ours any more)", async () => {
    const { answer, error } = await readsOf("/api/v1/jobs/{id}/lease", "409", (client) => client.renewLease("job1", "vlease_1"));
    expect(error).toBeInstanceOf(ConflictError);
    expect((error as ConflictError).body?.message).toBe(at(answer, "error", "message"));
  });
});

describe("the request check (FakeApi.close)", () => {
  it("names an unknown, a missing and a wrong property, and an unknown query parameter", () => {
    const problems = requestProblems("/api/v1/jobs/job1/fail", "", { leaseToken: "vlease_1", retryable: "yes", noSuchProperty: "x" });
    expect(problems).toHaveLength(3);
    expect(problems.join("\n")).toMatch(/error/);
    expect(problems.join("\n")).toMatch(/retryable/);
    expect(problems.join("\n")).toMatch(/noSuchProperty/);
    expect(requestProblems("/api/v1/jobs/job1/fail", "", { leaseToken: "vlease_1", error: "it broke" })).toEqual([]);
    expect(requestProblems("/api/v1/jobs/claim", "?wait=1&patience=3", {})).toHaveLength(1);
  });
});
