// POST /api/v1/jobs/claim on a real, migrated PostgreSQL, through the exported route handler:
// batch order, who may take which job (capabilities, labels, pins, projects), leases that expire,
// concurrent claimers, and the long-poll woken by NOTIFY from another connection.
import { afterAll, describe, expect, it, vi } from "vitest";
import { createPrismaClient, db } from "~/server/db/client";
import { planBatch } from "~/server/agents/plan";
import { jobWakeups, type WakeReason } from "~/server/agents/wakeups";
import type { TClaimedJob } from "~/server/schemas/jobs";
import { agentApi, batchOf, claimed, expireLease, goodRun, jobsProject, registeredAgent, type ErrorReply, type TestAgent } from "~/test/agent-protocol";
import { rowCounts } from "~/test/rest-assertions";

const otherProcess = createPrismaClient(process.env.DATABASE_URL);
afterAll(async () => {
  await jobWakeups().close();
  await Promise.all([db.$disconnect(), otherProcess.$disconnect()]);
});

const label = (job: TClaimedJob) => `${job.warmup ? "w" : ""}${job.variant.name}${job.repetition}`;

/** Claims until the agent gets 204, and returns what it got. */
async function drain(agent: TestAgent): Promise<TClaimedJob[]> {
  const jobs: TClaimedJob[] = [];
  for (;;) {
    const reply = await agentApi.claim(agent.credential, 0);
    if (reply.status === 204) return jobs;
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    jobs.push((reply.body as { job: TClaimedJob }).job);
  }
}

describe("claim order", () => {
  it("offers a batch's jobs interleaved, warm-ups first, each with its workload, metrics and lease", async () => {
    const project = await jobsProject(db, "order", { warmupRuns: 1, measuredRuns: 3 });
    const batch = await batchOf(db, project);
    expect(batch).toMatchObject({ order: "interleaved", seed: null, jobs: 8, eligibleAgents: 0 });
    const agent = await registeredAgent(project);

    const jobs = await drain(agent);
    expect(jobs.map(label)).toEqual(["wA0", "wB0", "A0", "B0", "A1", "B1", "A2", "B2"]);
    const first = jobs[0] as TClaimedJob;
    expect(first).toMatchObject({
      batchId: batch.id,
      attempt: 1,
      maxAttempts: 3,
      leaseSeconds: 60,
      experiment: { slug: "a-vs-b", title: "A vs B" },
      workload: { name: "noop", settings: { size: 1 } },
      metrics: [{ key: "latency", unit: "ms", direction: "lower_is_better", aggregation: "mean" }],
    });
    expect(first.leaseToken).toMatch(/^vlease_/);
    const leaseLeft = new Date(first.leaseExpiresAt).getTime() - Date.now();
    expect(leaseLeft).toBeGreaterThan(0);
    expect(leaseLeft).toBeLessThanOrEqual(60_000);
    expect(jobs[3]?.workload.settings).toEqual({ size: 2 });
  });

  it("offers a random batch in the order its seed gives", async () => {
    const project = await jobsProject(db, "random", { measuredRuns: 6 });
    const batch = await batchOf(db, project, { order: "random", seed: 1234 });
    expect(batch.seed).toBe(1234);
    const agent = await registeredAgent(project);
    const expected = planBatch({ variants: ["A", "B"], warmupRuns: 0, measuredRuns: 6, order: "random", seed: 1234 }).map((j) => `${j.variant}${j.repetition}`);
    expect((await drain(agent)).map(label)).toEqual(expected);
  });

  it("picks a seed for a random batch when none is given, and returns it", async () => {
    const project = await jobsProject(db, "random-seed");
    const batch = await batchOf(db, project, { order: "random" });
    expect(Number.isInteger(batch.seed)).toBe(true);
    expect((await db.jobBatch.findUniqueOrThrow({ where: { id: batch.id } })).seed).toBe(batch.seed);
  });

  it("finishes an older batch before a newer one", async () => {
    const project = await jobsProject(db, "two-batches", { measuredRuns: 1 });
    const older = await batchOf(db, project);
    const newer = await batchOf(db, project);
    const agent = await registeredAgent(project);
    expect((await drain(agent)).map((job) => job.batchId)).toEqual([older.id, older.id, newer.id, newer.id]);
  });
});

describe("who may claim a job", () => {
  it("never gives a job to an agent lacking its capability", async () => {
    const project = await jobsProject(db, "capability", {
      measuredRuns: 3,
      variants: [
        { name: "A", isBaseline: true, config: { workload: "noop" } },
        { name: "B", isBaseline: false, config: { workload: "gzip" } },
      ],
    });
    await batchOf(db, project);
    const noopOnly = await registeredAgent(project, { capabilities: ["noop"] });
    const got = await drain(noopOnly);
    expect(got.map((job) => job.workload.name)).toEqual(["noop", "noop", "noop"]);
    // An agent advertising the workload gets the rest.
    const gzip = await registeredAgent(project, { capabilities: [], workloads: [{ name: "gzip" }] });
    expect((await drain(gzip)).map(label)).toEqual(["B0", "B1", "B2"]);
  });

  it("honours a capability gained by heartbeat at once", async () => {
    const project = await jobsProject(db, "capability-heartbeat", { measuredRuns: 1 });
    await batchOf(db, project);
    const agent = await registeredAgent(project, { capabilities: ["other"] });
    expect((await agentApi.claim(agent.credential, 0)).status).toBe(204);
    await agentApi.heartbeat(agent.credential, { capabilities: ["noop"] });
    expect((await claimed(agent)).workload.name).toBe("noop");
  });

  it("gives a batch that requires labels only to agents that have all of them", async () => {
    const project = await jobsProject(db, "labels", { measuredRuns: 1 });
    const partial = await registeredAgent(project, { labels: { pool: "lab" } });
    const wrong = await registeredAgent(project, { labels: { pool: "ci", os: "linux" } });
    const full = await registeredAgent(project, { labels: { pool: "lab", os: "linux", arch: "arm64" } });
    const batch = await batchOf(db, project, { labels: { pool: "lab", os: "linux" } });
    expect(batch.eligibleAgents).toBe(1);
    expect((await agentApi.claim(partial.credential, 0)).status).toBe(204);
    expect((await agentApi.claim(wrong.credential, 0)).status).toBe(204);
    expect((await drain(full)).map(label)).toEqual(["A0", "B0"]);
  });

  it("gives a pinned batch only to its agent", async () => {
    const project = await jobsProject(db, "pinned", { measuredRuns: 1 });
    const other = await registeredAgent(project);
    const pinned = await registeredAgent(project);
    const batch = await batchOf(db, project, { agentId: pinned.id });
    expect(batch.eligibleAgents).toBe(1);
    expect((await agentApi.claim(other.credential, 0)).status).toBe(204);
    expect((await drain(pinned)).map(label)).toEqual(["A0", "B0"]);
  });

  it("never shows an agent another project's jobs: claims find nothing, job calls answer 404 and write nothing", async () => {
    const a = await jobsProject(db, "isolation-a", { measuredRuns: 1 });
    const b = await jobsProject(db, "isolation-b", { measuredRuns: 1 });
    await batchOf(db, a);
    const agentA = await registeredAgent(a);
    const agentB = await registeredAgent(b);
    expect((await agentApi.claim(agentB.credential, 0)).status).toBe(204);
    const job = await claimed(agentA);

    const before = { rows: await rowCounts(db), job: await db.job.findUniqueOrThrow({ where: { id: job.id } }) };
    for (const call of [
      () => agentApi.lease(agentB.credential, job.id, { leaseToken: job.leaseToken }),
      () => agentApi.complete(agentB.credential, job.id, { leaseToken: job.leaseToken, run: goodRun() }),
      () => agentApi.fail(agentB.credential, job.id, { leaseToken: job.leaseToken, error: "x" }),
      () => agentApi.release(agentB.credential, job.id, { leaseToken: job.leaseToken }),
    ]) {
      const reply = await call();
      expect(reply.status).toBe(404);
      expect((reply.body as unknown as ErrorReply).error.code).toBe("NOT_FOUND");
    }
    expect({ rows: await rowCounts(db), job: await db.job.findUniqueOrThrow({ where: { id: job.id } }) }).toEqual(before);
  });

  it("answers 401 to a claim without a credential", async () => {
    const reply = await agentApi.claim(null, 0);
    expect(reply.status).toBe(401);
  });

  it("answers 400 to a wait it cannot honour", async () => {
    const project = await jobsProject(db, "bad-wait");
    const agent = await registeredAgent(project);
    const reply = await agentApi.claim(agent.credential, 31);
    expect(reply.status).toBe(400);
    expect((reply.body as unknown as ErrorReply).error.details?.fields[0]?.path).toEqual(["wait"]);
  });
});

describe("leases that expire", () => {
  it("offer a crashed agent's job to another agent, counting an attempt; the old lease is dead", async () => {
    const project = await jobsProject(db, "expiry", { measuredRuns: 1 });
    await batchOf(db, project, { variants: ["A"] });
    const crashed = await registeredAgent(project);
    const healthy = await registeredAgent(project);
    const first = await claimed(crashed);
    expect((await agentApi.claim(healthy.credential, 0)).status).toBe(204);

    await expireLease(db, first.id);
    const second = await claimed(healthy);
    expect(second).toMatchObject({ id: first.id, attempt: 2 });
    expect(second.leaseToken).not.toBe(first.leaseToken);

    const before = await rowCounts(db);
    expect((await agentApi.lease(crashed.credential, first.id, { leaseToken: first.leaseToken })).status).toBe(409);
    const late = await agentApi.complete(crashed.credential, first.id, { leaseToken: first.leaseToken, run: goodRun() });
    expect(late.status).toBe(409);
    expect((late.body as unknown as ErrorReply).error.message).toMatch(/no longer yours: it expired, and attempt 2 of 3 holds the job now/);
    expect(await rowCounts(db)).toEqual(before);
    expect((await agentApi.complete(healthy.credential, second.id, { leaseToken: second.leaseToken, run: goodRun() })).status).toBe(201);
  });

  it("fail the job when the lease expires on its last attempt, with the reason", async () => {
    const project = await jobsProject(db, "exhausted", { measuredRuns: 1 });
    await batchOf(db, project, { variants: ["A"], maxAttempts: 2 });
    const agent = await registeredAgent(project);
    const first = await claimed(agent);
    await expireLease(db, first.id);
    expect((await claimed(agent)).attempt).toBe(2);
    await expireLease(db, first.id);

    expect((await agentApi.claim(agent.credential, 0)).status).toBe(204);
    const job = await db.job.findUniqueOrThrow({ where: { id: first.id } });
    expect(job.status).toBe("failed");
    expect(job.error).toMatch(/^the lease expired on attempt 2 of 2: the agent stopped renewing it/);
    expect(job.finishedAt).not.toBeNull();
  });

  it("renewing keeps a lease alive, even one that expired before anyone took the job", async () => {
    const project = await jobsProject(db, "renew", { measuredRuns: 1 });
    await batchOf(db, project, { variants: ["A"] });
    const agent = await registeredAgent(project);
    const job = await claimed(agent);
    await expireLease(db, job.id);
    const reply = await agentApi.lease(agent.credential, job.id, { leaseToken: job.leaseToken });
    expect(reply.status).toBe(200);
    expect(new Date(reply.body.leaseExpiresAt).getTime()).toBeGreaterThan(Date.now());
    expect(reply.body.cancelRequested).toBe(false);
    // Renewed, so nobody else can take it.
    const other = await registeredAgent(project);
    expect((await agentApi.claim(other.credential, 0)).status).toBe(204);
  });
});

describe("concurrent claims", () => {
  it("8 agents claiming at once take each job exactly once", async () => {
    const project = await jobsProject(db, "concurrent", { measuredRuns: 30 });
    await batchOf(db, project);
    const agents = await Promise.all(Array.from({ length: 8 }, () => registeredAgent(project)));
    const taken = (await Promise.all(agents.map(drain))).flat();
    expect(taken).toHaveLength(60);
    expect(new Set(taken.map((job) => job.id)).size).toBe(60);
    const jobs = await db.job.findMany({ where: { projectId: project.id } });
    expect(jobs.every((job) => job.status === "leased" && job.attempts === 1)).toBe(true);
  });
});

describe("long-poll", () => {
  /** Records how each wait of the process's wakeups ended. */
  function recordWakeReasons() {
    const wakeups = jobWakeups();
    const subscribe = wakeups.subscribe.bind(wakeups);
    const reasons: WakeReason[] = [];
    const spy = vi.spyOn(wakeups, "subscribe").mockImplementation((projectId) => {
      const subscription = subscribe(projectId);
      return {
        ...subscription,
        wait: async (ms, signal) => {
          const reason = await subscription.wait(ms, signal);
          reasons.push(reason);
          return reason;
        },
      };
    });
    return { reasons, restore: () => spy.mockRestore() };
  }

  async function untilWaiting(count = 1) {
    while (jobWakeups().waiting < count) await new Promise((resolve) => setTimeout(resolve, 10));
  }

  it("is woken by a batch enqueued through another database connection (another server process)", async () => {
    const project = await jobsProject(db, "longpoll", { measuredRuns: 1 });
    const agent = await registeredAgent(project);
    const { reasons, restore } = recordWakeReasons();
    try {
      const claim = agentApi.claim(agent.credential, 30);
      await untilWaiting();
      const batch = await batchOf(otherProcess, project, { variants: ["A"] });
      const reply = await claim;
      expect(reply.status).toBe(200);
      expect((reply.body as { job: TClaimedJob }).job.batchId).toBe(batch.id);
      // It returned because NOTIFY woke it — not because a recheck timer or its wait ran out.
      expect(reasons).toEqual(["woken"]);
    } finally {
      restore();
    }
  });

  it("is not woken by another project's work", async () => {
    const mine = await jobsProject(db, "longpoll-mine");
    const theirs = await jobsProject(db, "longpoll-theirs");
    const agent = await registeredAgent(mine);
    const { reasons, restore } = recordWakeReasons();
    try {
      const claim = agentApi.claim(agent.credential, 1);
      await untilWaiting();
      await batchOf(otherProcess, theirs);
      expect((await claim).status).toBe(204);
      expect(reasons).toEqual(["timeout"]);
    } finally {
      restore();
    }
  });

  it("stops waiting when the agent hangs up", async () => {
    const project = await jobsProject(db, "longpoll-abort");
    const agent = await registeredAgent(project);
    const hangUp = new AbortController();
    const claim = agentApi.claim(agent.credential, 30, hangUp.signal);
    await untilWaiting();
    hangUp.abort();
    expect((await claim).status).toBe(204);
    expect(jobWakeups().waiting).toBe(0);
  });

  it("gives back a job it leased as its agent hung up (the agent never saw the lease)", async () => {
    const project = await jobsProject(db, "claim-abandoned", { measuredRuns: 1 });
    const agent = await registeredAgent(project);
    await batchOf(db, project);
    const hungUp = new AbortController();
    hungUp.abort();
    expect((await agentApi.claim(agent.credential, 0, hungUp.signal)).status).toBe(204);
    const jobs = await db.job.findMany({ where: { projectId: project.id }, select: { status: true } });
    expect(jobs.map((job) => job.status)).toEqual(["queued", "queued"]);
    expect((await claimed(agent)).variant.name).toBe("A");
  });
});
