// An in-memory Versus job API on node:http, for the agent's tests: it speaks the protocol of
// docs/agent-protocol.md closely enough to exercise every path of the agent, and lets a test
// script the hard cases (an outage, a lost lease, a cancel, a revoked agent).
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Job, RunReport } from "../api/protocol";
import { documentFile, requestProblems } from "./protocol-document";

export interface FakeJob {
  job: Job;
  status: "queued" | "leased" | "succeeded" | "failed" | "cancelled";
  agentId?: string;
  cancelRequested: boolean;
}

interface FakeAgent {
  id: string;
  name: string;
  credential: string;
  revoked: boolean;
  lastHeartbeat?: Record<string, unknown>;
}

export interface RecordedCall {
  path: string;
  /** The query string ("?wait=1"), "" when none. */
  search: string;
  status: number;
  body: Record<string, unknown>;
}

export class FakeApi {
  readonly enrollmentToken = "venr_test_token";
  readonly agents: FakeAgent[] = [];
  readonly jobs = new Map<string, FakeJob>();
  /** Runs stored by complete, one per job however often complete is called. */
  readonly runs = new Map<string, RunReport>();
  readonly failures = new Map<string, Record<string, unknown>>();
  readonly calls: RecordedCall[] = [];
  /** While true every request gets 503, like a server whose database is down. */
  down = false;
  /** The Retry-After header of those 503s (none when undefined). */
  retryAfter: string | undefined;
  /** Answer 409 to lease renewals of these jobs (as if the lease had expired and moved on). */
  readonly stolenLeases = new Set<string>();
  stopAgents = false;
  /** Changes a claimed job before it is sent (to play a server that speaks another version). */
  claimTransform: (job: Job) => unknown = (job) => job;
  heartbeatIntervalSeconds = 0.2;
  private waiting: (() => void)[] = [];
  private nextId = 1;
  private server = http.createServer((req, res) => void this.handle(req, res));
  url = "";

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  /**
   * Stops the fake, then checks every request the agent sent against the server's request schemas
   * (docs/openapi.json, closed to properties they do not list): the fake answers what the tests
   * need, the document says what the real server takes.
   */
  async close() {
    for (const wake of this.waiting) wake();
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
    const problems = [...new Set(this.calls.flatMap((call) => requestProblems(call.path, call.search, call.body)))];
    if (problems.length > 0) throw new Error(`the agent sent what the server's schema (${documentFile}) refuses:\n  ${problems.join("\n  ")}`);
  }

  enqueue(workload: { name: string; settings: Record<string, unknown> }, options: { leaseSeconds?: number; metrics?: Job["metrics"] } = {}): string {
    const id = `job${this.nextId++}`;
    this.jobs.set(id, {
      status: "queued",
      cancelRequested: false,
      job: {
        id,
        leaseToken: "",
        leaseSeconds: options.leaseSeconds ?? 30,
        attempt: 0,
        maxAttempts: 3,
        batchId: "batch1",
        experiment: { slug: "exp", title: "Experiment" },
        variant: { name: "A" },
        repetition: 1,
        warmup: false,
        workload,
        metrics: options.metrics ?? [],
        probes: [],
      },
    });
    for (const wake of this.waiting.splice(0)) wake();
    return id;
  }

  callsTo(suffix: string): RecordedCall[] {
    return this.calls.filter((call) => call.path.endsWith(suffix));
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = (chunks.length ? JSON.parse(Buffer.concat(chunks).toString("utf8")) : {}) as Record<string, unknown>;
    const url = new URL(req.url ?? "/", this.url);
    const send = (status: number, payload?: unknown) => {
      this.calls.push({ path: url.pathname, search: url.search, status, body });
      res.writeHead(status, {
        "content-type": "application/json",
        ...(status === 503 && this.retryAfter !== undefined ? { "retry-after": this.retryAfter } : {}),
      });
      res.end(payload === undefined ? undefined : JSON.stringify(payload));
    };
    const error = (status: number, code: string, message: string) => send(status, { error: { code, message } });
    if (this.down) return error(503, "UNAVAILABLE", "database unavailable");

    const bearer = (req.headers.authorization ?? "").replace(/^Bearer /, "");
    if (url.pathname === "/api/v1/agents/register") {
      if (bearer !== this.enrollmentToken) return error(401, "UNAUTHORIZED", "Unknown enrollment token");
      const agent = { id: `agent${this.agents.length + 1}`, name: String(body.name), credential: `vsag_secret_${this.agents.length + 1}`, revoked: false };
      this.agents.push(agent);
      return send(201, {
        agent: { id: agent.id, name: agent.name, project: "examples" },
        credential: agent.credential,
        heartbeatIntervalSeconds: this.heartbeatIntervalSeconds,
        claimWaitSeconds: 1,
        leaseSeconds: 30,
      });
    }
    const agent = this.agents.find((candidate) => candidate.credential === bearer);
    if (!agent || agent.revoked) return error(401, "UNAUTHORIZED", agent ? "This agent was revoked" : "Unknown agent credential");

    if (url.pathname === "/api/v1/agents/heartbeat") {
      agent.lastHeartbeat = body;
      const running = (body.runningJobIds as string[] | undefined) ?? [];
      const cancelJobIds = running.filter((id) => this.jobs.get(id)?.cancelRequested);
      return send(200, { cancelJobIds, stop: this.stopAgents, heartbeatIntervalSeconds: this.heartbeatIntervalSeconds });
    }
    if (url.pathname === "/api/v1/jobs/claim") {
      const waitSeconds = Number(url.searchParams.get("wait") ?? 30);
      const deadline = Date.now() + waitSeconds * 1000;
      for (;;) {
        const queued = [...this.jobs.values()].find((entry) => entry.status === "queued");
        if (queued) {
          queued.status = "leased";
          queued.agentId = agent.id;
          queued.job = { ...queued.job, attempt: queued.job.attempt + 1, leaseToken: `vlease_${queued.job.id}_${queued.job.attempt + 1}` };
          return send(200, { job: this.claimTransform(queued.job) });
        }
        const left = deadline - Date.now();
        if (left <= 0 || this.down) return send(204);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          this.waiting.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
    }
    const match = /^\/api\/v1\/jobs\/([^/]+)\/(lease|complete|fail|release)$/.exec(url.pathname);
    const entry = match ? this.jobs.get(match[1]!) : undefined;
    if (!match || !entry) return error(404, "NOT_FOUND", "No such job in this project");
    const action = match[2];
    const ours = entry.job.leaseToken === body.leaseToken && entry.agentId === agent.id;
    if (action === "complete" && ours && entry.status === "succeeded")
      return send(200, { run: { id: `run_${entry.job.id}`, repetition: 1, url: "" }, replayed: true });
    if (!ours || entry.status !== "leased") return error(409, "CONFLICT", "The lease is not yours any more");
    if (action === "lease") {
      if (this.stolenLeases.has(entry.job.id)) return error(409, "CONFLICT", "The lease expired and another agent took the job");
      return send(200, { leaseExpiresAt: new Date(Date.now() + entry.job.leaseSeconds * 1000).toISOString(), cancelRequested: entry.cancelRequested });
    }
    if (action === "complete") {
      entry.status = "succeeded";
      this.runs.set(entry.job.id, body.run as RunReport);
      return send(201, { run: { id: `run_${entry.job.id}`, repetition: 1, url: "" }, replayed: false });
    }
    if (action === "fail") {
      entry.status = body.cancelled ? "cancelled" : "failed";
      this.failures.set(entry.job.id, body);
      return send(200, { status: entry.status });
    }
    entry.status = "queued";
    entry.agentId = undefined;
    return send(200, { status: "queued" });
  }
}
