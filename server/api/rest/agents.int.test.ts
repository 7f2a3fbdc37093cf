// POST /api/v1/agents/register and /heartbeat on a real, migrated PostgreSQL, through the
// exported route handlers: enrollment, credential rotation, revocation, what a heartbeat records
// and what its reply asks of the agent.
import { afterAll, describe, expect, it } from "vitest";
import { GET as registerGet, POST as registerRoute } from "~/app/api/v1/agents/register/route";
import { db } from "~/server/db/client";
import { hashSecret } from "~/server/auth/secret-tokens";
import { revokeEnrollmentToken } from "~/server/agents/enrollment-tokens";
import { revokeAgent, requestAgentStop } from "~/server/agents/agent-admin";
import { agentApi, batchOf, claimed, jobsProject, registeredAgent, uniqueSuffix, type ErrorReply } from "~/test/agent-protocol";

afterAll(() => db.$disconnect());

const agentRows = (projectId: string) => db.agent.findMany({ where: { projectId }, orderBy: { id: "asc" } });

describe("POST /api/v1/agents/register", () => {
  it("enrolls an agent: a vsag_ credential shown once, stored only as its hash, linked to its enrollment token", async () => {
    const project = await jobsProject(db, "register");
    const reply = await agentApi.register(project.token, {
      name: "bench-box-1",
      kind: "go",
      version: "0.3.0",
      capabilities: ["http"],
      labels: { pool: "lab", os: "linux" },
      workloads: [{ name: "gzip", description: "Compress payloads", settingsSchema: { type: "object", properties: { level: { type: "integer" } } } }],
      environment: { cores: 8 },
    });
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    expect(reply.body).toMatchObject({
      agent: { name: "bench-box-1", project: project.slug },
      heartbeatIntervalSeconds: 10,
      claimWaitSeconds: 30,
      leaseSeconds: 60,
    });
    expect(reply.body.credential).toMatch(/^vsag_[A-Za-z0-9_-]{43}$/);

    const agent = await db.agent.findUniqueOrThrow({ where: { id: reply.body.agent.id }, include: { enrollmentToken: true } });
    expect(agent.tokenHash).toBe(hashSecret(reply.body.credential));
    expect(JSON.stringify(agent)).not.toContain(reply.body.credential);
    expect(agent.credentialPrefix).toBe(reply.body.credential.slice(0, 11));
    expect(agent.enrollmentToken?.tokenHash).toBe(hashSecret(project.token));
    // The advertised workload's name is a capability: the agent can run it.
    expect(agent.capabilities.sort()).toEqual(["gzip", "http"]);
    expect(agent.labels).toEqual({ pool: "lab", os: "linux" });
    expect(agent.environment).toEqual({ cores: 8 });
    expect(agent.lastSeenAt).not.toBeNull();
  });

  it("registering a name again rotates the credential: the old one is refused from then on", async () => {
    const project = await jobsProject(db, "rotate");
    const first = await registeredAgent(project, { name: "box" });
    const second = await registeredAgent(project, { name: "box", version: "2.0.0" });
    expect(second.id).toBe(first.id);
    expect(second.credential).not.toBe(first.credential);
    expect((await agentRows(project.id)).map((a) => a.version)).toEqual(["2.0.0"]);

    const old = await agentApi.heartbeat(first.credential);
    expect(old.status).toBe(401);
    expect((old.body as unknown as ErrorReply).error.message).toMatch(/Unknown agent credential/);
    expect((await agentApi.heartbeat(second.credential)).status).toBe(200);
  });

  it("refuses a revoked agent's name with 409 and changes nothing", async () => {
    const project = await jobsProject(db, "revoked-name");
    const agent = await registeredAgent(project, { name: "old-box" });
    await revokeAgent(db, project.id, agent.id);
    const before = await agentRows(project.id);
    const reply = await agentApi.register(project.token, { name: "old-box", kind: "go", version: "1" });
    expect(reply.status).toBe(409);
    expect((reply.body as unknown as ErrorReply).error).toMatchObject({ code: "CONFLICT", details: { fields: [{ path: ["name"] }] } });
    expect((reply.body as unknown as ErrorReply).error.message).toMatch(/"old-box" was revoked on .* another name/);
    expect(await agentRows(project.id)).toEqual(before);
  });

  it.each([
    ["no Authorization header", null, /Missing Authorization header/],
    ["an unknown token", "venr_nope", /Unknown enrollment token/],
    ["a project API key instead", "vs_abc", /that is a project API key/],
  ])("answers 401 to %s and creates no agent", async (_, token, message) => {
    const project = await jobsProject(db, "reg-401");
    const reply = await agentApi.register(token, { name: "x", kind: "go", version: "1" });
    expect(reply.status).toBe(401);
    expect((reply.body as unknown as ErrorReply).error.message).toMatch(message);
    expect(await agentRows(project.id)).toEqual([]);
  });

  it("answers 401 to a revoked enrollment token", async () => {
    const project = await jobsProject(db, "reg-revoked-token");
    const token = await db.agentEnrollmentToken.findFirstOrThrow({ where: { projectId: project.id } });
    await revokeEnrollmentToken(db, project.id, token.id);
    const reply = await agentApi.register(project.token, { name: "x", kind: "go", version: "1" });
    expect(reply.status).toBe(401);
    expect((reply.body as unknown as ErrorReply).error.message).toMatch(/was revoked/);
    expect(await agentRows(project.id)).toEqual([]);
  });

  it("answers 400 naming each bad field, and creates nothing", async () => {
    const project = await jobsProject(db, "reg-400");
    const reply = await agentApi.register(project.token, { name: " ", kind: "rust", version: "1", labels: { pool: 3 } });
    expect(reply.status).toBe(400);
    const paths = (reply.body as unknown as ErrorReply).error.details?.fields.map((f) => f.path.join(".")).sort();
    expect(paths).toEqual(["kind", "labels.pool", "name"]);
    expect(await agentRows(project.id)).toEqual([]);
  });

  it("two first registrations of one name at once make one agent", async () => {
    const project = await jobsProject(db, "reg-race");
    const replies = await Promise.all([1, 2, 3].map(() => agentApi.register(project.token, { name: "twin", kind: "go", version: "1" })));
    expect(replies.map((r) => r.status)).toEqual([201, 201, 201]);
    const rows = await agentRows(project.id);
    expect(rows).toHaveLength(1);
    // Exactly one of the credentials is the live one: the last rotation's.
    const live = replies.filter((r) => hashSecret(r.body.credential) === rows[0]?.tokenHash);
    expect(live).toHaveLength(1);
  });
});

describe("revoking an agent", () => {
  it("refuses its very next call with 401, on every route, and puts its running job back in the queue", async () => {
    const project = await jobsProject(db, "revoke");
    const agent = await registeredAgent(project);
    await batchOf(db, project);
    const job = await claimed(agent);
    const revoked = await revokeAgent(db, project.id, agent.id);
    expect(revoked.requeuedJobs).toBe(1);

    for (const call of [
      () => agentApi.heartbeat(agent.credential),
      () => agentApi.claim(agent.credential, 0),
      () => agentApi.lease(agent.credential, job.id, { leaseToken: job.leaseToken }),
      () => agentApi.complete(agent.credential, job.id, { leaseToken: job.leaseToken, run: { metrics: [{ key: "latency", samples: [1] }] } }),
      () => agentApi.fail(agent.credential, job.id, { leaseToken: job.leaseToken, error: "x" }),
      () => agentApi.release(agent.credential, job.id, { leaseToken: job.leaseToken }),
    ]) {
      const reply = await call();
      expect(reply.status).toBe(401);
      expect((reply.body as unknown as ErrorReply).error.message).toMatch(/Agent ".*" was revoked on/);
    }
    const row = await db.job.findUniqueOrThrow({ where: { id: job.id } });
    expect(row).toMatchObject({ status: "queued", attempts: 0, runId: null });
    // Another agent takes it at once.
    const other = await registeredAgent(project);
    expect((await claimed(other)).id).toBe(job.id);
  });
});

describe("POST /api/v1/agents/heartbeat", () => {
  it("records what the agent sends, and keeps what it leaves out", async () => {
    const project = await jobsProject(db, "heartbeat");
    const agent = await registeredAgent(project, { labels: { pool: "a" }, capabilities: ["noop", "http"] });
    const reply = await agentApi.heartbeat(agent.credential, { version: "1.1.0", labels: { pool: "b" } });
    expect(reply).toEqual({ status: 200, body: { cancelJobIds: [], stop: false, heartbeatIntervalSeconds: 10 } });
    const row = await db.agent.findUniqueOrThrow({ where: { id: agent.id } });
    expect({ version: row.version, labels: row.labels, capabilities: row.capabilities.sort() }).toEqual({
      version: "1.1.0",
      labels: { pool: "b" },
      capabilities: ["http", "noop"],
    });
  });

  it("accepts an empty body as a bare heartbeat", async () => {
    const project = await jobsProject(db, "heartbeat-empty");
    const agent = await registeredAgent(project);
    expect((await agentApi.heartbeat(agent.credential, "")).status).toBe(200);
  });

  it("names the running jobs to stop (cancelled, or no longer this agent's) and says when to exit", async () => {
    const project = await jobsProject(db, "heartbeat-cancel");
    const agent = await registeredAgent(project);
    await batchOf(db, project);
    const kept = await claimed(agent);
    const cancelled = await claimed(agent);
    await db.job.update({ where: { id: cancelled.id }, data: { cancelRequested: true } });
    const stranger = `job-${uniqueSuffix()}`;

    const reply = await agentApi.heartbeat(agent.credential, { runningJobIds: [kept.id, cancelled.id, stranger] });
    expect(reply.body.cancelJobIds.sort()).toEqual([cancelled.id, stranger].sort());
    expect(reply.body.stop).toBe(false);

    await requestAgentStop(db, project.id, agent.id);
    expect((await agentApi.heartbeat(agent.credential, { runningJobIds: [kept.id] })).body).toMatchObject({ cancelJobIds: [], stop: true });
    // An agent asked to stop gets no new work.
    expect((await agentApi.claim(agent.credential, 0)).status).toBe(204);
  });
});

describe("the agent protocol refuses what it cannot read", () => {
  it("a body that is not application/json gets 415, and nothing is written", async () => {
    const project = await jobsProject(db, "media-type");
    const body = JSON.stringify({ name: "png-box", kind: "go", version: "1", capabilities: [] });
    const reply = await registerRoute(
      new Request("http://localhost/api/v1/agents/register", {
        method: "POST",
        headers: { authorization: `Bearer ${project.token}`, "content-type": "image/png" },
        body,
      }),
    );
    expect(reply.status).toBe(415);
    expect(((await reply.json()) as ErrorReply).error.code).toBe("UNSUPPORTED_MEDIA_TYPE");
    expect(await agentRows(project.id)).toEqual([]);
  });

  it("a job id no job can have gets 400 naming the path segment", async () => {
    const project = await jobsProject(db, "job-path");
    const agent = await registeredAgent(project, { name: "path-box" });
    const reply = await agentApi.lease(agent.credential, "x".repeat(65), { leaseToken: "vlease_whatever" });
    expect(reply.status).toBe(400);
    expect(JSON.stringify(reply.body)).toMatch(/job id is at most 64 characters/);
  });

  it("an unknown method gets 405 with Allow", async () => {
    const reply = await registerGet(new Request("http://localhost/api/v1/agents/register"));
    expect(reply.status).toBe(405);
    expect(reply.headers.get("allow")).toBe("OPTIONS, POST");
  });
});
