// POST /api/v1/jobs/{id}/{complete,fail,release,lease} on a real, migrated PostgreSQL, through the
// exported route handlers: a job stores exactly one run however often it is completed, bad input
// is refused with nothing written, failures are retried with backoff until maxAttempts, and
// users' cancellations and retries reach the agent.
import { afterAll, describe, expect, it } from "vitest";
import { db } from "~/server/db/client";
import { cancelBatch, cancelJob, retryFailed } from "~/server/agents/batches";
import { LOG_TAIL_MAX_BYTES } from "~/server/schemas/jobs";
import { ingestResults } from "~/server/runs/ingest-results";
import { listExperiments } from "~/server/experiments/experiments";
import { agentApi, batchOf, claimed, goodRun, jobsProject, registeredAgent, type ErrorReply } from "~/test/agent-protocol";
import { rowCounts } from "~/test/rest-assertions";

afterAll(() => db.$disconnect());

/** One measured job of variant A, leased to a new agent. */
async function leasedJob(label: string, options: { maxAttempts?: number; warmupRuns?: number } = {}) {
  const project = await jobsProject(db, label, { measuredRuns: 1, warmupRuns: options.warmupRuns ?? 0 });
  const batch = await batchOf(db, project, { variants: ["A"], maxAttempts: options.maxAttempts ?? 3 });
  const agent = await registeredAgent(project);
  const job = await claimed(agent);
  return { project, batch, agent, job };
}

/** The job's row and everything a complete can write, to prove a refusal wrote nothing. */
async function snapshot(jobId: string) {
  return { rows: await rowCounts(db), job: await db.job.findUniqueOrThrow({ where: { id: jobId } }) };
}

describe("complete", () => {
  it("stores the run through ingest as an agent run of the job's variant, and marks the job succeeded with it", async () => {
    const { project, agent, job } = await leasedJob("complete");
    const reply = await agentApi.complete(agent.credential, job.id, {
      leaseToken: job.leaseToken,
      run: {
        startedAt: "2026-11-24T15:00:01Z",
        finishedAt: "2026-11-24T15:00:09Z",
        environment: { cores: 8 },
        metrics: [{ key: "latency", samples: [41.2, 40.9, 42] }],
      },
    });
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    expect(reply.body.replayed).toBe(false);
    expect(reply.body.run?.url).toBe(`http://test.local/p/${project.slug}/e/a-vs-b`);

    const stored = await db.job.findUniqueOrThrow({ where: { id: job.id }, include: { run: { include: { variant: true, results: true } } } });
    expect(stored).toMatchObject({ status: "succeeded", runId: reply.body.run?.id, leaseExpiresAt: null });
    expect(stored.finishedAt).not.toBeNull();
    expect(stored.run).toMatchObject({
      source: "agent",
      sourceDetail: `agent ${agent.name}`,
      repetition: reply.body.run?.repetition,
      environment: { cores: 8 },
    });
    expect(stored.run?.variant.name).toBe("A");
    expect(stored.run?.results[0]).toMatchObject({ n: 3n });
  });

  it("stores the commit the agent measured: hash, branch, subject line and commit time; the time is checked like an upload's", async () => {
    const { agent, job } = await leasedJob("complete-commit");
    const run = {
      environment: {},
      metrics: [{ key: "latency", samples: [41.2, 40.9, 42] }],
      gitCommit: "0123456789abcdef0123456789abcdef01234567",
      gitBranch: "main",
    };
    const bad = await agentApi.complete(agent.credential, job.id, { leaseToken: job.leaseToken, run: { ...run, gitCommitTime: "last Tuesday" } });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain("gitCommitTime");
    const variantBefore = await db.variant.findFirstOrThrow({ where: { jobs: { some: { id: job.id } } }, select: { id: true, runsVersion: true } });
    const reply = await agentApi.complete(agent.credential, job.id, {
      leaseToken: job.leaseToken,
      run: { ...run, gitCommitMessage: "Reuse the deflate state", gitCommitTime: "2026-11-24T16:00:00+01:00" },
    });
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    // The variant's runs changed: stored histories of it are stale (server/history/stored-series.ts).
    expect((await db.variant.findUniqueOrThrow({ where: { id: variantBefore.id } })).runsVersion).not.toBe(variantBefore.runsVersion);
    const stored = await db.run.findUniqueOrThrow({
      where: { id: reply.body.run!.id },
      select: { gitCommit: true, gitBranch: true, gitCommitMessage: true, gitCommitTime: true },
    });
    expect(stored).toEqual({
      gitCommit: run.gitCommit,
      gitBranch: "main",
      gitCommitMessage: "Reuse the deflate state",
      gitCommitTime: new Date("2026-11-24T15:00:00Z"),
    });
  });

  it("stores one run however often it is repeated: the repeat answers 200 with the same run", async () => {
    const { agent, job } = await leasedJob("complete-twice");
    const body = { leaseToken: job.leaseToken, run: goodRun() };
    const first = await agentApi.complete(agent.credential, job.id, body);
    const before = await snapshot(job.id);
    const second = await agentApi.complete(agent.credential, job.id, body);
    expect(first.status).toBe(201);
    expect(second).toEqual({ status: 200, body: { run: first.body.run, replayed: true } });
    expect(await snapshot(job.id)).toEqual(before);
  });

  it("stores one run when the same complete arrives several times at once", async () => {
    const { agent, job } = await leasedJob("complete-race");
    const before = await rowCounts(db);
    const replies = await Promise.all(
      Array.from({ length: 6 }, () => agentApi.complete(agent.credential, job.id, { leaseToken: job.leaseToken, run: goodRun() })),
    );
    expect(replies.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 200, 201]);
    expect(new Set(replies.map((r) => r.body.run?.id)).size).toBe(1);
    expect((await rowCounts(db)).runs).toBe(before.runs + 1);
    expect(await db.run.count({ where: { job: { id: job.id } } })).toBe(1);
  });

  it("answers 409 to a lease that is not the job's, and writes nothing", async () => {
    const { agent, job } = await leasedJob("complete-wrong-lease");
    const before = await snapshot(job.id);
    const reply = await agentApi.complete(agent.credential, job.id, { leaseToken: "vlease_not-mine", run: goodRun() });
    expect(reply.status).toBe(409);
    expect((reply.body as unknown as ErrorReply).error.code).toBe("CONFLICT");
    expect(await snapshot(job.id)).toEqual(before);
  });

  it("answers 404 to an unknown job, and writes nothing", async () => {
    const { agent, job } = await leasedJob("complete-unknown");
    const before = await rowCounts(db);
    const reply = await agentApi.complete(agent.credential, "no-such-job", { leaseToken: job.leaseToken, run: goodRun() });
    expect(reply.status).toBe(404);
    expect((reply.body as unknown as ErrorReply).error.message).toMatch(/No job "no-such-job" in this agent's project/);
    expect(await rowCounts(db)).toEqual(before);
  });

  it.each([
    ["no run at all", {}, ["run"]],
    ["a run without metrics", { run: { metrics: [] } }, ["run.metrics"]],
    ["a sample that is not a number", { run: { metrics: [{ key: "latency", samples: [1, "fast"] }] } }, ["run.metrics.0.samples.1"]],
    ["a metric with neither samples nor a summary", { run: { metrics: [{ key: "latency" }] } }, ["run.metrics.0"]],
  ])("answers 400 to %s, naming the field, and writes nothing", async (_, body, paths) => {
    const { agent, job } = await leasedJob("complete-malformed");
    const before = await snapshot(job.id);
    const reply = await agentApi.complete(agent.credential, job.id, { leaseToken: job.leaseToken, ...body });
    expect(reply.status).toBe(400);
    const error = (reply.body as unknown as ErrorReply).error;
    expect(error.details?.fields.map((f) => f.path.join("."))).toEqual(paths);
    expect(await snapshot(job.id)).toEqual(before);
  });

  it("stores the run under the job's variant whatever variant the run names (unknown keys are ignored, as uploads ignore them)", async () => {
    const { agent, job } = await leasedJob("complete-variant");
    const reply = await agentApi.complete(agent.credential, job.id, { leaseToken: job.leaseToken, run: { ...goodRun(), variant: "B", repetition: 99 } });
    expect(reply.status).toBe(201);
    const run = await db.run.findUniqueOrThrow({ where: { id: reply.body.run?.id }, include: { variant: true } });
    expect({ variant: run.variant.name, repetition: run.repetition }).toEqual({ variant: "A", repetition: 0 });
  });

  it("answers 400 to malformed JSON, and 422 naming the field to a metric the experiment lacks; the job stays leased", async () => {
    const { agent, job } = await leasedJob("complete-422");
    const before = await snapshot(job.id);
    const malformed = await agentApi.complete(agent.credential, job.id, "{not json");
    expect(malformed.status).toBe(400);
    const unknownMetric = await agentApi.complete(agent.credential, job.id, {
      leaseToken: job.leaseToken,
      run: { metrics: [{ key: "throughput", samples: [1] }] },
    });
    expect(unknownMetric.status).toBe(422);
    expect((unknownMetric.body as unknown as ErrorReply).error.details?.fields.map((f) => f.path.join("."))).toEqual(["run.metrics.0.key"]);
    const wrongUnit = await agentApi.complete(agent.credential, job.id, {
      leaseToken: job.leaseToken,
      run: { metrics: [{ key: "latency", unit: "s", samples: [1] }] },
    });
    expect(wrongUnit.status).toBe(422);
    expect((wrongUnit.body as unknown as ErrorReply).error.details?.fields.map((f) => f.path.join("."))).toEqual(["run.metrics.0.unit"]);
    expect(await snapshot(job.id)).toEqual(before);
    // The lease is intact: the same agent can still complete it properly.
    expect((await agentApi.complete(agent.credential, job.id, { leaseToken: job.leaseToken, run: goodRun() })).status).toBe(201);
  });

  it("checks a warm-up's result, then discards it: no run is stored", async () => {
    const { agent, job } = await leasedJob("warmup", { warmupRuns: 1 });
    expect(job.warmup).toBe(true);
    const before = await rowCounts(db);
    const bad = await agentApi.complete(agent.credential, job.id, { leaseToken: job.leaseToken, run: { metrics: [{ key: "nope", samples: [1] }] } });
    expect(bad.status).toBe(422);
    const reply = await agentApi.complete(agent.credential, job.id, { leaseToken: job.leaseToken, run: goodRun() });
    expect(reply).toEqual({ status: 201, body: { run: null, replayed: false } });
    expect(await rowCounts(db)).toEqual(before);
    expect(await db.job.findUniqueOrThrow({ where: { id: job.id } })).toMatchObject({ status: "succeeded", runId: null });
    expect(await agentApi.complete(agent.credential, job.id, { leaseToken: job.leaseToken, run: goodRun() })).toEqual({
      status: 200,
      body: { run: null, replayed: true },
    });
  });

  it("lets ingest number the runs: each variant's repetitions count up", async () => {
    const project = await jobsProject(db, "repetitions", { measuredRuns: 3 });
    await batchOf(db, project);
    const agent = await registeredAgent(project);
    const repetitions: Record<string, number[]> = { A: [], B: [] };
    for (let i = 0; i < 6; i++) {
      const job = await claimed(agent);
      const reply = await agentApi.complete(agent.credential, job.id, { leaseToken: job.leaseToken, run: goodRun(i) });
      repetitions[job.variant.name]?.push(reply.body.run?.repetition as number);
    }
    expect(repetitions).toEqual({ A: [0, 1, 2], B: [0, 1, 2] });
  });

  it("numbers runs of one variant completed at once by many agents, while uploads add runs to it, each number once", async () => {
    const project = await jobsProject(db, "repetitions-race", { measuredRuns: 12 });
    await batchOf(db, project);
    const agents = await Promise.all(Array.from({ length: 4 }, () => registeredAgent(project)));
    const jobs = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        claimed(agents[i % 4] as (typeof agents)[number]).then((job) => ({ job, agent: agents[i % 4] as (typeof agents)[number] })),
      ),
    );
    const experiment = await db.experiment.findFirstOrThrow({ where: { project: { slug: project.slug } }, select: { slug: true, projectId: true } });
    const upload = (i: number) =>
      ingestResults(
        db,
        {
          experiment: experiment.slug,
          create: false,
          runs: [{ variant: "A", status: "succeeded", environment: {}, tags: [], metrics: [{ key: "latency", samples: [i] }] }],
        },
        {
          projectId: experiment.projectId,
          projectSlug: project.slug,
          source: "upload",
          bodySha256: `race-${i}`,
          baseUrl: "http://test.local",
        },
      );
    const replies = await Promise.all([
      ...jobs.map(({ job, agent }) => agentApi.complete(agent.credential, job.id, { leaseToken: job.leaseToken, run: goodRun() })),
      ...Array.from({ length: 6 }, (_, i) => upload(i)),
    ]);
    expect(replies.slice(0, 24).map((r) => (r as { status: number }).status)).toEqual(Array(24).fill(201));
    const runs = await db.run.findMany({
      where: { experiment: { project: { slug: project.slug } } },
      select: { repetition: true, variant: { select: { name: true } } },
    });
    const numbers = (name: string) =>
      runs
        .filter((run) => run.variant.name === name)
        .map((run) => run.repetition)
        .sort((a, b) => a - b);
    expect(numbers("A")).toEqual(Array.from({ length: 18 }, (_, i) => i));
    expect(numbers("B")).toEqual(Array.from({ length: 12 }, (_, i) => i));
  });

  it("refuses a run whose variant has no repetition numbers left with 422, writing nothing and keeping the lease", async () => {
    const { project, agent, job } = await leasedJob("repetitions-exhausted");
    const experiment = await db.experiment.findFirstOrThrow({ where: { project: { slug: project.slug } }, select: { slug: true, projectId: true } });
    await ingestResults(
      db,
      {
        experiment: experiment.slug,
        create: false,
        runs: [{ variant: "A", status: "succeeded", repetition: 2_147_483_647, environment: {}, tags: [], metrics: [{ key: "latency", samples: [1] }] }],
      },
      {
        projectId: experiment.projectId,
        projectSlug: project.slug,
        source: "upload",
        bodySha256: "last",
        baseUrl: "http://test.local",
      },
    );
    const before = await snapshot(job.id);
    const reply = await agentApi.complete(agent.credential, job.id, { leaseToken: job.leaseToken, run: goodRun() });
    expect(reply.status).toBe(422);
    expect((reply.body as unknown as ErrorReply).error.message).toContain("no repetition numbers left");
    expect(await snapshot(job.id)).toEqual(before);
  });

  it("records every run's samples at the histogram scale of the metric's first run, so histograms merge", async () => {
    const project = await jobsProject(db, "scales", { measuredRuns: 2 });
    await batchOf(db, project, { variants: ["A"] });
    const agent = await registeredAgent(project);
    for (const samples of [
      [10.5, 11.25, 12.125],
      [0.001, 0.002, 0.0035],
    ]) {
      const job = await claimed(agent);
      expect((await agentApi.complete(agent.credential, job.id, { leaseToken: job.leaseToken, run: { metrics: [{ key: "latency", samples }] } })).status).toBe(
        201,
      );
    }
    const scales = await db.runMetricResult.findMany({ where: { run: { experiment: { project: { slug: project.slug } } } }, select: { histogramScale: true } });
    expect(scales).toHaveLength(2);
    expect(scales[0]?.histogramScale).toBeGreaterThan(0);
    expect(scales[1]?.histogramScale).toBe(scales[0]?.histogramScale);
  });

  it("changes the experiment with its run, so the experiments list shows it first, without writing the experiment's row", async () => {
    const { project, agent, job } = await leasedJob("touches-experiment");
    const where = { project: { slug: project.slug } };
    const edited = new Date("2026-01-01T00:00:00Z");
    await db.experiment.updateMany({ where, data: { updatedAt: edited } });
    expect((await listExperiments(db, project.slug)).experiments[0]?.updatedAt).toEqual(edited);
    expect((await agentApi.complete(agent.credential, job.id, { leaseToken: job.leaseToken, run: goodRun() })).status).toBe(201);
    const run = await db.run.findFirstOrThrow({ where: { experiment: where }, select: { createdAt: true } });
    expect((await listExperiments(db, project.slug)).experiments[0]?.updatedAt).toEqual(run.createdAt);
    expect((await db.experiment.findFirstOrThrow({ where, select: { updatedAt: true } })).updatedAt).toEqual(edited);
  });
});

describe("fail", () => {
  it("queues a retryable failure again after a backoff, and fails it for good on its last attempt with error and log tail", async () => {
    const { project, agent, job } = await leasedJob("fail", { maxAttempts: 2 });
    const first = await agentApi.fail(agent.credential, job.id, { leaseToken: job.leaseToken, error: "connection refused", logTail: "line 1\nline 2" });
    expect(first.status).toBe(200);
    expect(first.body.status).toBe("queued");
    const backoff = new Date(first.body.retryAt as string).getTime() - Date.now();
    expect(backoff).toBeGreaterThan(0);
    expect(backoff).toBeLessThanOrEqual(5000);
    // The same call again answers the same.
    expect(await agentApi.fail(agent.credential, job.id, { leaseToken: job.leaseToken, error: "connection refused" })).toEqual(first);

    // Not offered during the backoff; offered after it, as attempt 2.
    expect((await agentApi.claim(agent.credential, 0)).status).toBe(204);
    await db.job.update({ where: { id: job.id }, data: { runAfter: new Date(Date.now() - 1) } });
    const second = await claimed(agent);
    expect(second).toMatchObject({ id: job.id, attempt: 2 });

    const last = await agentApi.fail(agent.credential, job.id, { leaseToken: second.leaseToken, error: "connection refused again", logTail: "the end" });
    expect(last).toEqual({ status: 200, body: { status: "failed" } });
    expect(await db.job.findUniqueOrThrow({ where: { id: job.id } })).toMatchObject({
      status: "failed",
      error: "connection refused again",
      logTail: "the end",
      attempts: 2,
    });
    expect((await agentApi.claim(agent.credential, 0)).status).toBe(204);

    // A member retries it: a fresh set of attempts.
    const batch = await db.jobBatch.findFirstOrThrow({ where: { projectId: project.id } });
    expect(await retryFailed(db, project.id, batch.id)).toEqual({ retried: 1 });
    expect(await claimed(agent)).toMatchObject({ id: job.id, attempt: 1 });
  });

  it("fails a non-retryable error at once, keeping the last 64 KB of the log and 2,000 characters of the error", async () => {
    const { agent, job } = await leasedJob("fail-final");
    const log = `${"x".repeat(LOG_TAIL_MAX_BYTES)}THE END`;
    const reply = await agentApi.fail(agent.credential, job.id, { leaseToken: job.leaseToken, error: "e".repeat(3000), logTail: log, retryable: false });
    expect(reply.body).toEqual({ status: "failed" });
    const row = await db.job.findUniqueOrThrow({ where: { id: job.id } });
    expect(row.logTail?.length).toBe(LOG_TAIL_MAX_BYTES);
    expect(row.logTail?.endsWith("THE END")).toBe(true);
    expect(row.error?.length).toBe(2000);
  });

  it("answers 409 to a lease that is not the job's and 400 to a failure without an error, changing nothing", async () => {
    const { agent, job } = await leasedJob("fail-bad");
    const before = await snapshot(job.id);
    expect((await agentApi.fail(agent.credential, job.id, { leaseToken: "vlease_other", error: "x" })).status).toBe(409);
    const missing = await agentApi.fail(agent.credential, job.id, { leaseToken: job.leaseToken, error: "  " });
    expect(missing.status).toBe(400);
    expect((missing.body as unknown as ErrorReply).error.details?.fields.map((f) => f.path.join("."))).toEqual(["error"]);
    expect(await snapshot(job.id)).toEqual(before);
  });
});

describe("release", () => {
  it("gives the job back without counting the attempt; another agent takes it as attempt 1", async () => {
    const { project, agent, job } = await leasedJob("release");
    const reply = await agentApi.release(agent.credential, job.id, { leaseToken: job.leaseToken });
    expect(reply).toEqual({ status: 200, body: { status: "queued" } });
    expect(await agentApi.release(agent.credential, job.id, { leaseToken: job.leaseToken })).toEqual(reply);
    const other = await registeredAgent(project);
    expect(await claimed(other)).toMatchObject({ id: job.id, attempt: 1 });
    // Now the first agent's lease is dead.
    expect((await agentApi.release(agent.credential, job.id, { leaseToken: job.leaseToken })).status).toBe(409);
  });
});

describe("cancel", () => {
  it("cancels queued jobs at once, and tells a running job's agent through lease and heartbeat", async () => {
    const project = await jobsProject(db, "cancel", { measuredRuns: 2 });
    const batch = await batchOf(db, project);
    const agent = await registeredAgent(project);
    const running = await claimed(agent);

    expect(await cancelBatch(db, project.id, batch.id)).toEqual({ id: batch.id, cancelled: 3, stopping: 1 });
    expect((await agentApi.claim(agent.credential, 0)).status).toBe(204);
    expect((await agentApi.lease(agent.credential, running.id, { leaseToken: running.leaseToken })).body.cancelRequested).toBe(true);
    expect((await agentApi.heartbeat(agent.credential, { runningJobIds: [running.id] })).body.cancelJobIds).toEqual([running.id]);

    const ack = await agentApi.fail(agent.credential, running.id, { leaseToken: running.leaseToken, error: "cancelled by the user", cancelled: true });
    expect(ack.body).toEqual({ status: "cancelled" });
    const statuses = await db.job.groupBy({ by: ["status"], where: { batchId: batch.id }, _count: { _all: true } });
    expect(statuses.map((s) => [s.status, s._count._all])).toEqual([["cancelled", 4]]);
    expect((await db.jobBatch.findUniqueOrThrow({ where: { id: batch.id } })).cancelledAt).not.toBeNull();
  });

  it("cancels one job; a cancelled job's expired lease is not offered again", async () => {
    const project = await jobsProject(db, "cancel-one", { measuredRuns: 1 });
    await batchOf(db, project);
    const agent = await registeredAgent(project);
    const running = await claimed(agent);
    expect(await cancelJob(db, project.id, running.id)).toEqual({ id: running.id, status: "leased", cancelRequested: true });
    await db.job.update({ where: { id: running.id }, data: { leaseExpiresAt: new Date(Date.now() - 1000) } });
    const next = await claimed(agent);
    expect(next.id).not.toBe(running.id);
    expect((await db.job.findUniqueOrThrow({ where: { id: running.id } })).status).toBe("cancelled");
    // Another project's job cannot be cancelled from here.
    const other = await jobsProject(db, "cancel-other");
    await expect(cancelJob(db, other.id, next.id)).rejects.toThrow(/No job with that id in this project/);
  });
});
