// POST /api/v1/experiments/{slugOrId}/batches, GET /api/v1/batches/{id} and POST …/cancel on a
// real, migrated PostgreSQL through the exported route handlers, with an agent speaking the real
// job protocol: who may start, what is refused with nothing started, the commit stamped on the
// runs, the long-poll, and the verdict on the batch's own runs.
import { afterAll, describe, expect, it } from "vitest";
import { GET as batchRoute } from "~/app/api/v1/batches/[id]/route";
import { POST as cancelRoute } from "~/app/api/v1/batches/[id]/cancel/route";
import { POST as startRoute } from "~/app/api/v1/experiments/[slugOrId]/batches/route";
import { jobWakeups } from "~/server/agents/wakeups";
import { db } from "~/server/db/client";
import { createApiKey } from "~/server/projects/api-keys";
import type { TBatchStatus } from "~/server/schemas/batch-runs";
import { agentApi, claimed, jobsProject, registeredAgent, type JobsProject, type TestAgent } from "~/test/agent-protocol";
import type { ErrorBody } from "~/test/rest-assertions";
import { sampleSd } from "~/server/stats/descriptive";
import { minimumDetectableEffect, runsForEffect } from "~/server/stats/mde";

afterAll(async () => {
  await jobWakeups().close();
  await db.$disconnect();
});

const BASE = "http://test.local/api/v1";
const COMMIT = "0123456789abcdef0123456789abcdef01234567";

async function keyOf(project: JobsProject, scope: "upload" | "run") {
  return (await createApiKey(db, project.slug, `${scope} key`, undefined, scope)).secret;
}

async function start(key: string, slugOrId: string, body?: unknown) {
  const response = await startRoute(
    new Request(`${BASE}/experiments/${slugOrId}/batches`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
    { params: Promise.resolve({ slugOrId }) },
  );
  return { status: response.status, body: (await response.json()) as TBatchStatus & ErrorBody };
}

async function read(key: string, id: string, query = "") {
  const response = await batchRoute(new Request(`${BASE}/batches/${id}${query}`, { headers: { authorization: `Bearer ${key}` } }), {
    params: Promise.resolve({ id }),
  });
  return { status: response.status, body: (await response.json()) as TBatchStatus & ErrorBody };
}

async function cancel(key: string, id: string) {
  const response = await cancelRoute(new Request(`${BASE}/batches/${id}/cancel`, { method: "POST", headers: { authorization: `Bearer ${key}` } }), {
    params: Promise.resolve({ id }),
  });
  return { status: response.status, body: (await response.json()) as { cancelled: number } & ErrorBody };
}

/** Claims and completes every job the agent is offered; variant B's latency is `slowdown` times A's. */
async function runAll(agent: TestAgent, slowdown: number) {
  for (let i = 0; ; i++) {
    const reply = await agentApi.claim(agent.credential, 0);
    if (reply.status === 204) return;
    const job = (reply.body as { job: Awaited<ReturnType<typeof claimed>> }).job;
    const value = (job.variant.name === "B" ? 10 * slowdown : 10) + (i % 5) * 0.01;
    const done = await agentApi.complete(agent.credential, job.id, {
      leaseToken: job.leaseToken,
      run: { gitCommit: "fedcba9876543210", metrics: [{ key: "latency", samples: [value, value, value] }] },
    });
    expect(done.status, JSON.stringify(done.body)).toBe(201);
  }
}

const batchesOf = (project: JobsProject) => db.jobBatch.count({ where: { projectId: project.id } });

describe("noise: an A/A batch and the floor every later verdict shows", () => {
  it("runs the baseline against itself, gives each agent's spread and MDE, and the next batch's verdict shows it", async () => {
    const project = await jobsProject(db, "rest-noise", { measuredRuns: 5 });
    const agent = await registeredAgent(project);
    const key = await keyOf(project, "run");

    const refused = await start(key, project.experimentSlug, { noise: true, variants: ["A"] });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details?.fields).toEqual([{ path: ["variants"], message: "not with noise: the baseline is run against itself" }]);

    const aa = await start(key, project.experimentSlug, { noise: true });
    expect(aa.status, JSON.stringify(aa.body)).toBe(201);
    expect(aa.body).toMatchObject({ noise: true, variants: ["A"], jobs: { total: 10 } });
    await runAll(agent, 1);
    const measured = (await read(key, aa.body.id)).body.result;
    expect(measured?.markdown).toContain("## Versus noise floor");
    const [entry] = measured?.noise ?? [];
    const values = (await db.runMetricResult.findMany({ where: { run: { job: { batchId: aa.body.id } } }, select: { mean: true } })).map(
      (row) => row.mean as number,
    );
    expect(entry).toMatchObject({ metric: "latency", agent: agent.name, noiseRuns: 10, runs: 5, sd: expect.closeTo(sampleSd(values), 9) });
    const mde = ((minimumDetectableEffect(entry!.sd!, 5, 0.05) as number) / entry!.median) * 100;
    expect(entry!.mdePercent).toBeCloseTo(mde, 9);
    expect(entry!.mdePercent).toBeGreaterThan(0);
    // The runs a side a 2 % change (the default minimum) needs on this agent.
    expect(entry!.runsForMinChange).toBe(runsForEffect(entry!.sd!, 0.02 * entry!.median, 0.05));

    const next = await start(key, project.experimentSlug, { runs: 4 });
    await runAll(agent, 1);
    const verdict = (await read(key, next.body.id)).body.result;
    expect(verdict?.noise).toMatchObject([{ metric: "latency", agent: agent.name, runs: 4, batchId: aa.body.id }]);
    expect(verdict?.markdown).toMatch(
      /Noise floor of `latency` on \S+ \(A\/A batch of \d{4}-\d\d-\d\d\): changes under ±[\d.]+% cannot be seen with 4 runs here\./,
    );
  });
});

describe("POST /api/v1/experiments/{slugOrId}/batches", () => {
  it("refuses a key limited to uploads, and starts nothing", async () => {
    const project = await jobsProject(db, "rest-scope");
    await registeredAgent(project);
    const reply = await start(await keyOf(project, "upload"), project.experimentSlug);
    expect(reply.status).toBe(403);
    expect(reply.body.error.code).toBe("FORBIDDEN");
    expect(reply.body.error.message).toMatch(/may upload results .* but not start runs/);
    expect(await batchesOf(project)).toBe(0);
  });

  it("answers 404 for an unknown experiment, 422 for a variant without a workload or no online agent, and starts nothing", async () => {
    const project = await jobsProject(db, "rest-refusals", {
      variants: [
        { name: "A", isBaseline: true, config: { workload: "noop", settings: {} } },
        { name: "B", isBaseline: false, config: { workload: "noop", settings: {} } },
        { name: "Manual", isBaseline: false, config: {} },
      ],
    });
    const key = await keyOf(project, "run");

    const unknown = await start(key, "no-such-experiment");
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toContain('No experiment "no-such-experiment"');

    const noAgent = await start(key, project.experimentSlug, { variants: ["A", "B"] });
    expect(noAgent.status).toBe(422);
    expect(noAgent.body.error.message).toMatch(/No online agent can run this batch now, so nothing was started\. No agent of this project offers “noop”/);

    await registeredAgent(project);
    const noWorkload = await start(key, project.experimentSlug);
    expect(noWorkload.status).toBe(422);
    expect(noWorkload.body.error.message).toContain('Variant "Manual" has no workload');

    const unknownVariant = await start(key, project.experimentSlug, { variants: ["A", "C"] });
    expect(unknownVariant.status).toBe(400);
    expect(unknownVariant.body.error.details?.fields).toEqual([{ path: ["variants", 1], message: 'no variant "C" in this experiment' }]);

    const badRuns = await start(key, project.experimentSlug, { variants: ["A", "B"], runs: 0 });
    expect(badRuns.status).toBe(400);
    expect(badRuns.body.error.details?.fields).toEqual([{ path: ["runs"], message: "runs must be at least 1" }]);

    expect(await batchesOf(project)).toBe(0);
  });

  it("starts a batch on an online agent, stamps its commit on every run, and gives the verdict on its own runs", async () => {
    const project = await jobsProject(db, "rest-run");
    const agent = await registeredAgent(project);
    const key = await keyOf(project, "run");
    const started = await start(key, project.experimentSlug, { runs: 5, commit: COMMIT, branch: "main", commitMessage: "Make B slower" });
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    expect(started.body).toMatchObject({ state: "queued", variants: ["A", "B"], commit: COMMIT, branch: "main", result: null, waiting: [] });
    expect(started.body.jobs).toEqual({ total: 10, queued: 10, leased: 0, succeeded: 0, failed: 0, cancelled: 0 });

    // The long-poll answers once the agent takes a job: with the version it started from as `seen`.
    const waiting = read(key, started.body.id, `?wait=20&seen=${started.body.version}`);
    const job = await claimed(agent);
    const changed = await waiting;
    expect(changed.body.state).toBe("running");
    expect(changed.body.version).not.toBe(started.body.version);
    expect(changed.body.agents).toEqual([{ name: agent.name, running: 1 }]);
    await agentApi.release(agent.credential, job.id, { leaseToken: job.leaseToken });

    await runAll(agent, 1.5);
    const finished = await read(key, started.body.id, "?wait=5");
    expect(finished.body.state).toBe("succeeded");
    expect(finished.body.jobs.succeeded).toBe(10);
    const result = finished.body.result;
    expect(result?.verdict).toBe("regression");
    expect(result?.metrics).toMatchObject([{ variant: "B", key: "latency", verdict: "worse" }]);
    expect(result?.comparison.variants).toEqual([
      { name: "A", isBaseline: true, runs: 5 },
      { name: "B", isBaseline: false, runs: 5 },
    ]);
    expect(result?.markdown).toContain("## Versus run: ❌ Regression");
    expect(result?.markdown).toContain(`commit \`${COMMIT.slice(0, 12)}\` on \`main\``);

    const runs = await db.run.findMany({ where: { job: { batchId: started.body.id } }, select: { gitCommit: true, gitBranch: true, gitCommitMessage: true } });
    expect(runs).toHaveLength(10);
    for (const run of runs) expect(run).toEqual({ gitCommit: COMMIT, gitBranch: "main", gitCommitMessage: "Make B slower" });
  });

  it("compares only the batch's runs: a second batch without a change says no change", async () => {
    const project = await jobsProject(db, "rest-own-runs");
    const agent = await registeredAgent(project);
    const key = await keyOf(project, "run");
    const first = await start(key, project.experimentSlug, { runs: 5 });
    await runAll(agent, 2);
    expect((await read(key, first.body.id)).body.result?.verdict).toBe("regression");
    const second = await start(key, project.experimentSlug, { runs: 5 });
    await runAll(agent, 1);
    const result = (await read(key, second.body.id)).body.result;
    expect(result?.verdict).toBe("no_change");
    expect(result?.comparison.variants.map((v) => v.runs)).toEqual([5, 5]);
  });

  it("cancels a batch with a key that may start runs, not with an upload key", async () => {
    const project = await jobsProject(db, "rest-cancel");
    await registeredAgent(project);
    const runKey = await keyOf(project, "run");
    const started = await start(runKey, project.experimentSlug);
    expect((await cancel(await keyOf(project, "upload"), started.body.id)).status).toBe(403);
    const cancelled = await cancel(runKey, started.body.id);
    expect(cancelled.body.cancelled).toBe(4);
    const after = await read(runKey, started.body.id);
    expect(after.body).toMatchObject({ state: "cancelled", result: null });
  });

  it("does not show another project's batch", async () => {
    const project = await jobsProject(db, "rest-mine");
    await registeredAgent(project);
    const started = await start(await keyOf(project, "run"), project.experimentSlug);
    const other = await jobsProject(db, "rest-theirs");
    const reply = await read(await keyOf(other, "upload"), started.body.id);
    expect(reply.status).toBe(404);
  });
});
