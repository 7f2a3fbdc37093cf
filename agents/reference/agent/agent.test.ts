// The agent against a fake job API on node:http (test/fake-api.ts): every path of the protocol
// an agent must get right, with real HTTP, real files and real timers (retries made short).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { defaultRetryPolicies, type CallName } from "../api/client";
import type { RetryPolicy } from "../api/retry";
import { createLogger } from "../log";
import { FakeApi } from "../test/fake-api";
import { builtInWorkloads } from "../workloads/registry";
import { Agent, EXIT_CONFIG, EXIT_OK, type AgentConfig } from "./agent";

const quickRetries = Object.fromEntries(
  Object.entries(defaultRetryPolicies).map(([name, policy]) => [name, { ...policy, baseDelayMs: 10, maxDelayMs: 50 }]),
) as Record<CallName, RetryPolicy>;
const eventually = { timeout: 15_000, interval: 20 };

let api: FakeApi;
let dir: string;
const agents: { agent: Agent; exit: Promise<number> }[] = [];

beforeEach(async () => {
  api = await new FakeApi().start();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "versus-agent-test-"));
});

afterEach(async () => {
  for (const { agent, exit } of agents.splice(0)) {
    agent.stop("test over");
    await exit;
  }
  await api.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function startAgent(overrides: Partial<AgentConfig> = {}) {
  const lines: string[] = [];
  const config: AgentConfig = {
    url: api.url,
    enrollmentToken: api.enrollmentToken,
    name: "test-agent",
    labels: { pool: "test" },
    credentialFile: path.join(dir, "credential.json"),
    bufferDir: path.join(dir, "buffer"),
    shutdownGraceSeconds: 5,
    claimJitterMs: 10,
    ...overrides,
  };
  const agent = new Agent(
    config,
    builtInWorkloads(),
    createLogger((line) => lines.push(line)),
    quickRetries,
  );
  const exit = agent.run();
  agents.push({ agent, exit });
  return { agent, exit, lines };
}

const buffered = () => (fs.existsSync(path.join(dir, "buffer")) ? fs.readdirSync(path.join(dir, "buffer")) : []);
const statusOf = (id: string) => api.jobs.get(id)?.status;
/** The agent has the job in hand (leased on the server is not enough: the answer may be on its way). */
const started = (lines: string[], id: string) => lines.some((line) => line.includes("event=job.started") && line.includes(`job=${id}`));

describe("reference agent", () => {
  it("enrolls, claims a job, runs it and completes it with the run in the experiment's units", async () => {
    startAgent();
    const id = api.enqueue(
      { name: "gzip", settings: { sizeBytes: 4096, iterations: 5, warmupIterations: 1 } },
      {
        metrics: [
          { key: "compress_time", unit: "ms", direction: "lower_is_better" },
          { key: "payload_bytes", unit: "B", direction: "lower_is_better" },
        ],
      },
    );
    await vi.waitFor(() => expect(api.runs.has(id)).toBe(true), eventually);

    const run = api.runs.get(id)!;
    expect(run.metrics.map((m) => m.key)).toEqual(["compress_time", "payload_bytes"]);
    const time = run.metrics[0]!;
    expect(time.unit).toBe("ms");
    expect(time.samples).toHaveLength(5);
    const bytes = run.metrics[1]!;
    expect(bytes.summary?.mean).toBeGreaterThan(0);
    expect(bytes.summary?.mean).toBeLessThan(4096);
    expect(run.environment).toMatchObject({
      node: process.version,
      agent: { name: "test-agent" },
      workload: { name: "gzip", settings: { level: 6, compress: true } },
    });
    expect(run.environment.cpuModel).toEqual(expect.any(String));
    expect(Date.parse(run.finishedAt)).toBeGreaterThanOrEqual(Date.parse(run.startedAt));

    // Registered once, with its workloads' settings schemas; the credential is kept private.
    const register = api.callsTo("/agents/register");
    expect(register).toHaveLength(1);
    expect(register[0]!.body).toMatchObject({ name: "test-agent", kind: "other", capabilities: ["gzip", "sleep"], labels: { pool: "test" } });
    const gzipAdvert = (register[0]!.body.workloads as { name: string; settingsSchema: { properties: Record<string, unknown> } }[]).find(
      (w) => w.name === "gzip",
    );
    expect(Object.keys(gzipAdvert!.settingsSchema.properties)).toEqual(expect.arrayContaining(["sizeBytes", "level", "compress", "iterations"]));
    expect(fs.statSync(path.join(dir, "credential.json")).mode & 0o777).toBe(0o600);
    // Removed from the buffer once the server's answer arrived.
    await vi.waitFor(() => expect(buffered()).toEqual([]), eventually);
  });

  it("sends the commit it was told with every run: hash, branch, subject line and commit time", async () => {
    const commit = {
      gitCommit: "0123456789abcdef0123456789abcdef01234567",
      gitBranch: "main",
      gitCommitMessage: "Reuse the deflate state",
      gitCommitTime: "2026-11-24T15:00:00+01:00",
    };
    startAgent({ git: { kind: "fixed", commit } });
    const id = api.enqueue({ name: "sleep", settings: { ms: 1 } }, { metrics: [{ key: "slept_ms", unit: "ms", direction: "lower_is_better" }] });
    await vi.waitFor(() => expect(api.runs.has(id)).toBe(true), eventually);
    expect(api.runs.get(id)).toMatchObject(commit);
  });

  it("stops a job whose lease was lost (409) and drops its result, then goes on claiming", async () => {
    const { lines } = startAgent();
    const lost = api.enqueue({ name: "sleep", settings: { ms: 60_000 } }, { leaseSeconds: 0.3 });
    await vi.waitFor(() => expect(statusOf(lost)).toBe("leased"), eventually);
    api.stolenLeases.add(lost);
    await vi.waitFor(() => expect(lines.some((line) => line.includes("event=job.dropped") && line.includes(`job=${lost}`))).toBe(true), eventually);
    expect(api.callsTo(`/jobs/${lost}/complete`)).toEqual([]);
    expect(api.callsTo(`/jobs/${lost}/fail`)).toEqual([]);

    const next = api.enqueue({ name: "sleep", settings: { ms: 1 } });
    await vi.waitFor(() => expect(api.runs.has(next)).toBe(true), eventually);
    expect(api.runs.has(lost)).toBe(false);
  });

  it("stops a job a user cancelled (heard through the heartbeat) and acknowledges the cancel", async () => {
    startAgent();
    const id = api.enqueue({ name: "sleep", settings: { ms: 60_000 } });
    await vi.waitFor(() => expect(statusOf(id)).toBe("leased"), eventually);
    api.jobs.get(id)!.cancelRequested = true;
    await vi.waitFor(() => expect(statusOf(id)).toBe("cancelled"), eventually);
    expect(api.failures.get(id)).toMatchObject({ cancelled: true, retryable: false });
    expect(api.callsTo("/agents/heartbeat").some((call) => (call.body.runningJobIds as string[]).includes(id))).toBe(true);
  });

  it("stops a job a user cancelled (heard through a lease renewal) and acknowledges the cancel", async () => {
    api.heartbeatIntervalSeconds = 3600;
    const { lines } = startAgent();
    const id = api.enqueue({ name: "sleep", settings: { ms: 60_000 } }, { leaseSeconds: 0.3 });
    await vi.waitFor(() => expect(started(lines, id)).toBe(true), eventually);
    api.jobs.get(id)!.cancelRequested = true;
    await vi.waitFor(() => expect(statusOf(id)).toBe("cancelled"), eventually);
    expect(lines.some((line) => line.includes("event=job.cancel_requested") && line.includes("via=lease"))).toBe(true);
  });

  it("keeps a result through a server outage and delivers it when the server is back", async () => {
    startAgent();
    const id = api.enqueue({ name: "sleep", settings: { ms: 300 } });
    await vi.waitFor(() => expect(statusOf(id)).toBe("leased"), eventually);
    api.down = true;
    await vi.waitFor(() => expect(api.callsTo(`/jobs/${id}/complete`).filter((call) => call.status === 503).length).toBeGreaterThanOrEqual(2), eventually);
    expect(buffered()).toEqual([`${id}.json`]);

    api.down = false;
    await vi.waitFor(() => expect(api.runs.has(id)).toBe(true), eventually);
    expect(api.callsTo(`/jobs/${id}/complete`).filter((call) => call.status === 201)).toHaveLength(1);
    await vi.waitFor(() => expect(buffered()).toEqual([]), eventually);
  });

  it("keeps an unsent result on disk when it stops, and the next start delivers it", async () => {
    const first = startAgent({ shutdownGraceSeconds: 0.5 });
    const id = api.enqueue({ name: "sleep", settings: { ms: 200 } });
    await vi.waitFor(() => expect(statusOf(id)).toBe("leased"), eventually);
    api.down = true;
    await vi.waitFor(() => expect(buffered()).toEqual([`${id}.json`]), eventually);
    first.agent.stop("SIGTERM");
    expect(await first.exit).toBe(EXIT_OK);
    expect(first.lines.some((line) => line.includes("event=job.result_kept"))).toBe(true);
    expect(buffered()).toEqual([`${id}.json`]);
    expect(api.runs.has(id)).toBe(false);

    api.down = false;
    startAgent();
    await vi.waitFor(() => expect(api.runs.has(id)).toBe(true), eventually);
    await vi.waitFor(() => expect(buffered()).toEqual([]), eventually);
    // The second start used the saved credential: one registration in all.
    expect(api.agents).toHaveLength(1);
  });

  it("stops with exit code 78 when its credential is refused (401)", async () => {
    const { exit, lines } = startAgent();
    const id = api.enqueue({ name: "sleep", settings: { ms: 60_000 } });
    await vi.waitFor(() => expect(statusOf(id)).toBe("leased"), eventually);
    api.agents[0]!.revoked = true;
    expect(await exit).toBe(EXIT_CONFIG);
    expect(lines.some((line) => line.includes("event=agent.unauthorized"))).toBe(true);
    expect(api.failures.has(id)).toBe(false);
  });

  it("does not start without a credential or an enrollment token, or with a refused token", async () => {
    const missing = startAgent({ enrollmentToken: undefined });
    expect(await missing.exit).toBe(EXIT_CONFIG);
    expect(missing.lines.join("\n")).toContain("no enrollment token");
    const refused = startAgent({ enrollmentToken: "venr_wrong" });
    expect(await refused.exit).toBe(EXIT_CONFIG);
    expect(refused.lines.join("\n")).toContain("Unknown enrollment token");
  });

  it("fails a job with a bad setting, naming the setting, without retries", async () => {
    startAgent();
    const id = api.enqueue({ name: "gzip", settings: { level: 12, sizeBytes: 0, levle: 3 } });
    await vi.waitFor(() => expect(statusOf(id)).toBe("failed"), eventually);
    const failure = api.failures.get(id)!;
    expect(failure).toMatchObject({ retryable: false, cancelled: false });
    expect(failure.error).toContain('bad settings for workload "gzip"');
    expect(failure.error).toContain("level: Too big: expected number to be <=9");
    expect(failure.error).toContain("sizeBytes: Too small: expected number to be >=1");
    expect(failure.error).toContain("unknown setting 'levle'; valid settings are sizeBytes, compress, level");
  });

  it("fails a job it cannot read, saying which field, instead of leaving it leased", async () => {
    api.claimTransform = ({ workload, ...job }) => ({ ...job, workload: { workload: workload.name, settings: workload.settings } });
    startAgent();
    const id = api.enqueue({ name: "sleep", settings: {} });
    await vi.waitFor(() => expect(statusOf(id)).toBe("failed"), eventually);
    expect(api.failures.get(id)).toMatchObject({
      error: `the agent cannot read job ${id}: job.workload.name: Invalid input: expected string, received undefined`,
      retryable: false,
    });
  });

  it("fails a job with probes (it has none) before running it, naming the probes, without retries", async () => {
    // The server never offers it such a job (it advertises no probe:* capability); as if one were added by hand.
    api.claimTransform = (job) => ({ ...job, probes: [{ name: "app-1", kind: "prometheus", url: "http://127.0.0.1:8081/metrics" }] });
    startAgent();
    const id = api.enqueue({ name: "sleep", settings: { ms: 1 } });
    await vi.waitFor(() => expect(statusOf(id)).toBe("failed"), eventually);
    expect(api.failures.get(id)).toMatchObject({
      error: 'the reference agent has no probes; job.probes lists "app-1" (prometheus): run the job on the Go or JVM agent',
      retryable: false,
    });
    expect(api.callsTo("/complete")).toHaveLength(0);
  });

  it("fails a job for a workload it does not have", async () => {
    startAgent();
    const id = api.enqueue({ name: "http", settings: {} });
    await vi.waitFor(() => expect(statusOf(id)).toBe("failed"), eventually);
    expect(api.failures.get(id)?.error).toBe('this agent has no workload "http" (it has gzip, sleep)');
  });

  it("on SIGTERM releases a job that does not finish within the grace period", async () => {
    const { agent, exit, lines } = startAgent({ shutdownGraceSeconds: 0.2 });
    const id = api.enqueue({ name: "sleep", settings: { ms: 60_000 } });
    await vi.waitFor(() => expect(started(lines, id)).toBe(true), eventually);
    agent.stop("SIGTERM");
    expect(await exit).toBe(EXIT_OK);
    expect(statusOf(id)).toBe("queued");
    expect(api.callsTo(`/jobs/${id}/release`)).toHaveLength(1);
    expect(lines.some((line) => line.includes("event=job.released"))).toBe(true);
  });

  it("on SIGTERM finishes a job that ends within the grace period and reports it", async () => {
    const { agent, exit, lines } = startAgent({ shutdownGraceSeconds: 30 });
    const id = api.enqueue({ name: "sleep", settings: { ms: 500 } });
    await vi.waitFor(() => expect(started(lines, id)).toBe(true), eventually);
    agent.stop("SIGTERM");
    expect(await exit).toBe(EXIT_OK);
    expect(statusOf(id)).toBe("succeeded");
    expect(api.callsTo(`/jobs/${id}/release`)).toEqual([]);
  });

  it("stops at once when asked to while it cannot reach the server to enroll", async () => {
    api.down = true;
    const { agent, exit } = startAgent({ shutdownGraceSeconds: 3600 });
    await vi.waitFor(() => expect(api.callsTo("/agents/register").length).toBeGreaterThanOrEqual(2), eventually);
    agent.stop("SIGTERM");
    expect(await exit).toBe(EXIT_OK);
    expect(fs.existsSync(path.join(dir, "credential.json"))).toBe(false);
  });

  it("stops when the server says stop", async () => {
    const { exit } = startAgent();
    await vi.waitFor(() => expect(api.callsTo("/agents/heartbeat").length).toBeGreaterThan(0), eventually);
    api.stopAgents = true;
    expect(await exit).toBe(EXIT_OK);
  });
});
