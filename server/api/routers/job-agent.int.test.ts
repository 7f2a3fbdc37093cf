// The dashboard's job and agent procedures through tRPC as signed-in members, on a real
// database: "Run" makes a batch (or refuses clearly, writing nothing), progress is visible per
// job, failed jobs are retried, and the Agents page lists, revokes, stops and resumes agents and
// offers their workloads to the variant form.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "~/server/db/client";
import { ZExperimentInput, type TExperimentFormValues } from "~/server/schemas/experiment";
import { agentApi, claimed, goodRun, registeredAgent, type JobsProject } from "~/test/agent-protocol";
import { memberOf, projectWithOwner, type TestProject } from "~/test/project-members";
import type { TestUser } from "~/test/signed-in";
import { expectTRPCError, fieldIssuesOfError } from "~/test/trpc-errors";

afterAll(() => db.$disconnect());

let project: TestProject;
let member: TestUser;
let viewer: TestUser;
let jobs: JobsProject;

const variants: TExperimentFormValues["variants"] = [
  { name: "Plain", isBaseline: true, config: { workload: "gzip", settings: { level: 0 } } },
  { name: "Gzip", isBaseline: false, config: { workload: "gzip", settings: { level: 6 } } },
  { name: "Unset", isBaseline: false, config: {} },
];

async function experiment(slug: string, overrides: Partial<TExperimentFormValues> = {}) {
  await member.caller.experiment.create({
    projectSlug: project.slug,
    experiment: ZExperimentInput.parse({
      title: slug,
      slug,
      warmupRuns: 1,
      measuredRuns: 2,
      variants,
      metrics: [{ key: "latency", unit: "ms", direction: "lower_is_better" }],
      ...overrides,
    }),
  });
  return slug;
}

const queueSize = () => Promise.all([db.jobBatch.count({ where: { projectId: project.id } }), db.job.count({ where: { projectId: project.id } })]);

beforeAll(async () => {
  project = await projectWithOwner(db, "jobs");
  member = await memberOf(db, project, "member");
  viewer = await memberOf(db, project, "viewer");
  const token = await member.caller.enrollmentToken.create({ projectSlug: project.slug, name: "lab", expiresAt: null });
  jobs = { id: project.id, slug: project.slug, token: token.secret, experimentSlug: "" };
});

describe("job.startBatch", () => {
  it("queues variants × (warm-up + measured runs) in order and says which agents can run it", async () => {
    const slug = await experiment("start");
    await registeredAgent(jobs, { capabilities: [], workloads: [{ name: "gzip" }] });
    const batch = await member.caller.job.startBatch({ projectSlug: project.slug, experimentSlug: slug, variants: ["Plain", "Gzip"] });
    expect(batch).toMatchObject({ order: "interleaved", seed: null, jobs: 6, eligibleAgents: 1 });
    const rows = await db.job.findMany({ where: { batchId: batch.id }, orderBy: { position: "asc" }, include: { variant: true } });
    expect(rows.map((job) => `${job.warmup ? "w" : ""}${job.variant.name}${job.repetition}`)).toEqual([
      "wPlain0",
      "wGzip0",
      "Plain0",
      "Gzip0",
      "Plain1",
      "Gzip1",
    ]);
    expect(rows[1]).toMatchObject({
      capabilities: ["gzip"],
      payload: { workload: "gzip", settings: { level: 6 } },
      status: "queued",
      attempts: 0,
      maxAttempts: 3,
    });
    const stored = await db.jobBatch.findUniqueOrThrow({ where: { id: batch.id } });
    expect(stored.createdById).toBe(member.id);
  });

  it("refuses a variant without a workload, naming it, and writes nothing", async () => {
    const slug = await experiment("unset");
    const before = await queueSize();
    const error = await expectTRPCError(member.caller.job.startBatch({ projectSlug: project.slug, experimentSlug: slug }), "UNPROCESSABLE_CONTENT");
    expect(error.message).toBe('Variant "Unset" has no workload: edit the experiment and choose what agents run for it');
    expect(await queueSize()).toEqual(before);
  });

  it("refuses unknown variants, an agent of no use, and a batch too large — writing nothing", async () => {
    const slug = await experiment("refusals");
    // The experiment schema caps runs per variant at what one batch holds; one saved before that
    // cap (or written around it) is still refused by Run.
    const huge = await experiment("huge", { variants: variants.slice(0, 2) });
    await db.experiment.update({ where: { projectId_slug: { projectId: project.id, slug: huge } }, data: { measuredRuns: 100_000 } });
    const noGzip = await registeredAgent(jobs, { capabilities: ["noop"] });
    const before = await queueSize();
    const unknown = await expectTRPCError(
      member.caller.job.startBatch({ projectSlug: project.slug, experimentSlug: slug, variants: ["Plain", "Brotli"] }),
      "BAD_REQUEST",
    );
    expect(fieldIssuesOfError(unknown)).toEqual([{ path: ["variants", 1], message: 'no variant "Brotli" in this experiment' }]);
    const lacking = await expectTRPCError(
      member.caller.job.startBatch({ projectSlug: project.slug, experimentSlug: slug, variants: ["Plain"], agentId: noGzip.id }),
      "UNPROCESSABLE_CONTENT",
    );
    expect(lacking.message).toMatch(/cannot run "gzip"/);
    await expectTRPCError(
      member.caller.job.startBatch({ projectSlug: project.slug, experimentSlug: slug, variants: ["Plain"], agentId: "someone-elses" }),
      "NOT_FOUND",
    );
    const tooLarge = await expectTRPCError(member.caller.job.startBatch({ projectSlug: project.slug, experimentSlug: huge }), "UNPROCESSABLE_CONTENT");
    expect(tooLarge.message).toMatch(/200,002 jobs; one batch holds at most 20,000/);
    await expectTRPCError(member.caller.job.startBatch({ projectSlug: project.slug, experimentSlug: "no-such" }), "NOT_FOUND");
    expect(await queueSize()).toEqual(before);
  });

  it("is for members: a viewer cannot start a batch", async () => {
    const slug = await experiment("viewer-start");
    await expectTRPCError(viewer.caller.job.startBatch({ projectSlug: project.slug, experimentSlug: slug, variants: ["Plain"] }), "FORBIDDEN");
  });
});

describe("job.batches, job.get, job.retryFailed, job.cancel", () => {
  it("shows each job's progress: agent, attempt, error, run; a retried job runs again", async () => {
    // A workload of its own, so the agent gets only this batch's jobs, whatever the others queued.
    const own = variants.slice(0, 2).map((variant) => ({ ...variant, config: { workload: "zstd" } }));
    const slug = await experiment("progress", { warmupRuns: 0, measuredRuns: 1, variants: own });
    const agent = await registeredAgent(jobs, { capabilities: [], workloads: [{ name: "zstd" }] });
    const batch = await member.caller.job.startBatch({
      projectSlug: project.slug,
      experimentSlug: slug,
      variants: ["Plain", "Gzip"],
      order: "random",
      seed: 5,
    });
    const first = await claimed(agent);
    const done = await agentApi.complete(agent.credential, first.id, { leaseToken: first.leaseToken, run: goodRun() });
    const second = await claimed(agent);
    await agentApi.fail(agent.credential, second.id, { leaseToken: second.leaseToken, error: "boom", logTail: "stack trace", retryable: false });

    const [listed] = await viewer.caller.job.batches({ projectSlug: project.slug, experimentSlug: slug });
    expect(listed).toMatchObject({ id: batch.id, order: "random", seed: 5, createdBy: { name: "member" }, cancelledAt: null, jobsTruncated: false });
    expect(listed?.counts).toEqual({ queued: 0, leased: 0, succeeded: 1, failed: 1, cancelled: 0 });
    expect(
      listed?.jobs.map((job) => ({ id: job.id, status: job.status, agent: job.agent?.name, attempts: job.attempts, error: job.error, runId: job.runId })),
    ).toEqual([
      { id: first.id, status: "succeeded", agent: agent.name, attempts: 1, error: null, runId: done.body.run?.id },
      { id: second.id, status: "failed", agent: agent.name, attempts: 1, error: "boom", runId: null },
    ]);
    expect(await viewer.caller.job.get({ projectSlug: project.slug, jobId: second.id })).toMatchObject({
      logTail: "stack trace",
      payload: { workload: "zstd" },
      experiment: { slug },
    });

    expect(await member.caller.job.retryFailed({ projectSlug: project.slug, batchId: batch.id, jobId: second.id })).toEqual({ retried: 1 });
    expect((await claimed(agent)).id).toBe(second.id);
    expect((await member.caller.job.cancel({ projectSlug: project.slug, jobId: second.id })).cancelRequested).toBe(true);
    expect((await member.caller.job.cancelBatch({ projectSlug: project.slug, batchId: batch.id })).stopping).toBe(0);
  });

  it("hides other projects' batches and jobs", async () => {
    const other = await projectWithOwner(db, "jobs-other");
    const slug = await experiment("hidden", { warmupRuns: 0, measuredRuns: 1 });
    const batch = await member.caller.job.startBatch({ projectSlug: project.slug, experimentSlug: slug, variants: ["Plain"] });
    const job = await db.job.findFirstOrThrow({ where: { batchId: batch.id } });
    await expectTRPCError(other.owner.caller.job.get({ projectSlug: other.slug, jobId: job.id }), "NOT_FOUND");
    await expectTRPCError(other.owner.caller.job.cancelBatch({ projectSlug: other.slug, batchId: batch.id }), "NOT_FOUND");
    await expectTRPCError(other.owner.caller.job.retryFailed({ projectSlug: other.slug, batchId: batch.id }), "NOT_FOUND");
    await expectTRPCError(other.owner.caller.job.batches({ projectSlug: other.slug, experimentSlug: slug }), "NOT_FOUND");
    expect((await db.job.findUniqueOrThrow({ where: { id: job.id } })).status).toBe("queued");
  });
});

describe("agent.requestStop and agent.resume", () => {
  it("a stopped agent resumed works again with the credential it has: its heartbeat says go on and its claims get jobs", async () => {
    const fresh = await projectWithOwner(db, "agents-resume");
    const token = await fresh.owner.caller.enrollmentToken.create({ projectSlug: fresh.slug, name: "rack 5", expiresAt: null });
    const agent = await registeredAgent(
      { id: fresh.id, slug: fresh.slug, token: token.secret, experimentSlug: "" },
      { name: "resumed", capabilities: ["gzip"] },
    );
    await fresh.owner.caller.experiment.create({
      projectSlug: fresh.slug,
      experiment: ZExperimentInput.parse({
        title: "E",
        slug: "e",
        warmupRuns: 0,
        measuredRuns: 1,
        variants: [{ name: "A", isBaseline: true, config: { workload: "gzip" } }],
        metrics: [{ key: "latency", unit: "ms", direction: "lower_is_better" }],
      }),
    });

    await fresh.owner.caller.agent.requestStop({ projectSlug: fresh.slug, agentId: agent.id });
    await fresh.owner.caller.job.startBatch({ projectSlug: fresh.slug, experimentSlug: "e" });
    expect((await agentApi.heartbeat(agent.credential)).body.stop).toBe(true);
    expect((await agentApi.claim(agent.credential, 0)).status).toBe(204);
    expect((await fresh.owner.caller.agent.list({ projectSlug: fresh.slug }))[0]?.stopRequested).toBe(true);

    expect(await fresh.owner.caller.agent.resume({ projectSlug: fresh.slug, agentId: agent.id })).toEqual({ id: agent.id });
    expect((await fresh.owner.caller.agent.list({ projectSlug: fresh.slug }))[0]?.stopRequested).toBe(false);
    expect((await agentApi.heartbeat(agent.credential)).body.stop).toBe(false);
    const job = await claimed(agent);
    expect((await agentApi.complete(agent.credential, job.id, { leaseToken: job.leaseToken, run: goodRun() })).status).toBe(201);
    // Resuming an agent that runs is nothing; a revoked one, or another project's, is not found.
    expect(await fresh.owner.caller.agent.resume({ projectSlug: fresh.slug, agentId: agent.id })).toEqual({ id: agent.id });
    await expectTRPCError(member.caller.agent.resume({ projectSlug: project.slug, agentId: agent.id }), "NOT_FOUND");
    await fresh.owner.caller.agent.revoke({ projectSlug: fresh.slug, agentId: agent.id });
    await expectTRPCError(fresh.owner.caller.agent.resume({ projectSlug: fresh.slug, agentId: agent.id }), "NOT_FOUND");
  });
});

describe("agent.list, agent.workloads, agent.revoke, agent.requestStop", () => {
  it("lists agents with online state, what they run and how they enrolled; revoking one takes it offline", async () => {
    const fresh = await projectWithOwner(db, "agents-page");
    const token = await fresh.owner.caller.enrollmentToken.create({ projectSlug: fresh.slug, name: "rack 4", expiresAt: null });
    const where: JobsProject = { id: fresh.id, slug: fresh.slug, token: token.secret, experimentSlug: "" };
    const busy = await registeredAgent(where, {
      name: "busy",
      kind: "go",
      labels: { pool: "lab" },
      workloads: [{ name: "gzip", description: "old", settingsSchema: { type: "object" } }],
    });
    const idle = await registeredAgent(where, {
      name: "idle",
      workloads: [{ name: "gzip", description: "new", settingsSchema: { type: "object", properties: { level: { type: "integer" } } } }, { name: "http" }],
    });
    // "idle" was seen long ago: offline.
    await db.agent.update({ where: { id: idle.id }, data: { lastSeenAt: new Date(Date.now() - 60_000) } });
    await fresh.owner.caller.experiment.create({
      projectSlug: fresh.slug,
      experiment: ZExperimentInput.parse({
        title: "E",
        slug: "e",
        warmupRuns: 0,
        measuredRuns: 1,
        variants: [{ name: "A", isBaseline: true, config: { workload: "gzip" } }],
        metrics: [{ key: "latency", unit: "ms", direction: "lower_is_better" }],
      }),
    });
    await fresh.owner.caller.job.startBatch({ projectSlug: fresh.slug, experimentSlug: "e" });
    const job = await claimed(busy);

    const list = await fresh.owner.caller.agent.list({ projectSlug: fresh.slug });
    expect(
      list.map((a) => ({
        name: a.name,
        online: a.online,
        kind: a.kind,
        token: a.enrollmentToken?.name,
        current: a.currentJobs.map((j) => `${j.experiment.slug}/${j.variant}`),
      })),
    ).toEqual([
      { name: "busy", online: true, kind: "go", token: "rack 4", current: ["e/A"] },
      { name: "idle", online: false, kind: "other", token: "rack 4", current: [] },
    ]);
    expect(list[0]).toMatchObject({ labels: { pool: "lab" }, workloads: ["gzip"], credentialPrefix: expect.stringMatching(/^vsag_/) });

    // The most recently seen agent's description of a workload wins.
    const workloads = await fresh.owner.caller.agent.workloads({ projectSlug: fresh.slug });
    expect(workloads.map((w) => ({ name: w.name, description: w.description, agents: w.agents.map((a) => `${a.name}:${a.online}`) }))).toEqual([
      { name: "gzip", description: "old", agents: ["busy:true", "idle:false"] },
      { name: "http", description: "", agents: ["idle:false"] },
    ]);

    await fresh.owner.caller.agent.requestStop({ projectSlug: fresh.slug, agentId: busy.id });
    expect((await agentApi.heartbeat(busy.credential)).body.stop).toBe(true);

    const revoked = await fresh.owner.caller.agent.revoke({ projectSlug: fresh.slug, agentId: busy.id });
    expect(revoked.requeuedJobs).toBe(1);
    expect((await agentApi.heartbeat(busy.credential)).status).toBe(401);
    const after = await fresh.owner.caller.agent.list({ projectSlug: fresh.slug });
    expect(after.map((a) => [a.name, a.online, a.revokedAt !== null])).toEqual([
      ["idle", false, false],
      ["busy", false, true],
    ]);
    expect((await db.job.findUniqueOrThrow({ where: { id: job.id } })).status).toBe("queued");
    // A stranger's project cannot revoke it.
    await expectTRPCError(member.caller.agent.revoke({ projectSlug: project.slug, agentId: idle.id }), "NOT_FOUND");
  });
});
