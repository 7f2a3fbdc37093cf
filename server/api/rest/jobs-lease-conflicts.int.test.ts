// A lease that is not the job's current one is answered 409 on every call about the job (lease,
// complete, fail, release), saying which case it is — in the message and as `details.reason`:
// a token never issued for this job, a lease that expired and another attempt holds, a lease
// that ended with the job queued again, a job already finished, another agent's lease — and
// changing nothing.
import { afterAll, describe, expect, it } from "vitest";
import { db } from "~/server/db/client";
import { cancelJob } from "~/server/agents/batches";
import { agentApi, batchOf, claimed, expireLease, goodRun, jobsProject, registeredAgent, type ErrorReply, type TestAgent } from "~/test/agent-protocol";
import { rowCounts } from "~/test/rest-assertions";

afterAll(() => db.$disconnect());

async function leasedJob(label: string) {
  const project = await jobsProject(db, label, { measuredRuns: 1 });
  await batchOf(db, project, { variants: ["A"], maxAttempts: 3 });
  const agent = await registeredAgent(project, { name: `${label}-first` });
  const job = await claimed(agent);
  return { project, agent, job };
}

type Call = "lease" | "complete" | "fail" | "release";

/** The calls about `jobId` with `leaseToken` (every one unless told): each answers 409 with `reason` and a message matching `message`, and nothing changes. */
async function expectConflictEverywhere(agent: TestAgent, jobId: string, leaseToken: string, reason: string, message: RegExp, only?: Call[]) {
  const before = { rows: await rowCounts(db), job: await db.job.findUniqueOrThrow({ where: { id: jobId } }) };
  const calls = {
    lease: () => agentApi.lease(agent.credential, jobId, { leaseToken }),
    complete: () => agentApi.complete(agent.credential, jobId, { leaseToken, run: goodRun() }),
    fail: () => agentApi.fail(agent.credential, jobId, { leaseToken, error: "it broke" }),
    release: () => agentApi.release(agent.credential, jobId, { leaseToken }),
  };
  for (const [name, call] of Object.entries(calls).filter(([name]) => !only || only.includes(name as Call))) {
    const reply = await call();
    expect(reply.status, `${name}: ${JSON.stringify(reply.body)}`).toBe(409);
    const { error } = reply.body as unknown as ErrorReply & { error: { details?: { reason?: string } } };
    expect(error.code, name).toBe("CONFLICT");
    expect(error.details?.reason, `${name}: ${error.message}`).toBe(reason);
    expect(error.message, name).toMatch(message);
  }
  expect({ rows: await rowCounts(db), job: await db.job.findUniqueOrThrow({ where: { id: jobId } }) }).toEqual(before);
}

describe("a lease that is not the job's current one", () => {
  it("a token never issued for this job (made up): says so, not that a lease expired", async () => {
    const { agent, job } = await leasedJob("made-up");
    await expectConflictEverywhere(
      agent,
      job.id,
      "vlease_not-mine",
      "lease_unknown",
      new RegExp(`^Job ${job.id} never had this lease: it is not a lease token Versus issued for this job`),
    );
  });

  it("another job's lease token: says whose it is", async () => {
    const project = await jobsProject(db, "other-job", { measuredRuns: 1 });
    await batchOf(db, project, { maxAttempts: 3 });
    const agent = await registeredAgent(project);
    const first = await claimed(agent);
    const second = await claimed(agent);
    await expectConflictEverywhere(
      agent,
      second.id,
      first.leaseToken,
      "lease_unknown",
      new RegExp(`^Job ${second.id} never had this lease: it is the lease of job ${first.id}`),
    );
  });

  it("expired, and another attempt holds the job now: says which attempt on which agent", async () => {
    const { project, agent, job } = await leasedJob("taken");
    const other = await registeredAgent(project, { name: "taken-second" });
    await expireLease(db, job.id);
    expect(await claimed(other)).toMatchObject({ id: job.id, attempt: 2 });
    await expectConflictEverywhere(
      agent,
      job.id,
      job.leaseToken,
      "lease_taken",
      /^This lease on job \S+ is no longer yours: it expired, and attempt 2 of 3 holds the job now \(agent "taken-second"\)\. Stop working on it and drop its result\.$/,
    );
  });

  it("ended, and the job is queued again (given back): says so", async () => {
    const { agent, job } = await leasedJob("ended");
    expect((await agentApi.release(agent.credential, job.id, { leaseToken: job.leaseToken })).status).toBe(200);
    // (A release or fail after it, under the lease that ended it, answers as the release did.)
    await expectConflictEverywhere(
      agent,
      job.id,
      job.leaseToken,
      "lease_ended",
      /^This lease on job \S+ is no longer yours: it ended and the job is queued again\. Stop working on it and drop its result\.$/,
      ["lease", "complete"],
    );
  });

  it("a job already finished — succeeded, failed, cancelled: says which", async () => {
    const succeeded = await leasedJob("finished-ok");
    expect((await agentApi.complete(succeeded.agent.credential, succeeded.job.id, { leaseToken: succeeded.job.leaseToken, run: goodRun() })).status).toBe(201);
    const renew = await agentApi.lease(succeeded.agent.credential, succeeded.job.id, { leaseToken: succeeded.job.leaseToken });
    expect(renew.status).toBe(409);
    expect(renew.body as unknown).toMatchObject({
      error: {
        code: "CONFLICT",
        message: `Job ${succeeded.job.id} has already succeeded: nothing more to do with it. Stop working on it and drop its result.`,
        details: { reason: "job_finished" },
      },
    });

    const failed = await leasedJob("finished-failed");
    expect((await agentApi.fail(failed.agent.credential, failed.job.id, { leaseToken: failed.job.leaseToken, error: "no", retryable: false })).body).toEqual({
      status: "failed",
    });
    const late = await agentApi.complete(failed.agent.credential, failed.job.id, { leaseToken: failed.job.leaseToken, run: goodRun() });
    expect(late.body as unknown).toMatchObject({
      error: {
        message: `Job ${failed.job.id} has already failed: nothing more to do with it. Stop working on it and drop its result.`,
        details: { reason: "job_finished" },
      },
    });

    const cancelled = await leasedJob("finished-cancelled");
    await cancelJob(db, cancelled.project.id, cancelled.job.id);
    expect(
      (await agentApi.fail(cancelled.agent.credential, cancelled.job.id, { leaseToken: cancelled.job.leaseToken, error: "cancelled", cancelled: true })).body,
    ).toEqual({ status: "cancelled" });
    // (A fail or release repeated under the lease that ended it answers as the first did.)
    await expectConflictEverywhere(
      cancelled.agent,
      cancelled.job.id,
      cancelled.job.leaseToken,
      "job_finished",
      new RegExp(`^Job ${cancelled.job.id} was cancelled: nothing more to do with it\\.`),
      ["lease", "complete"],
    );
  });

  it("the job's current lease, presented by another agent: says it is another agent's", async () => {
    const { project, job } = await leasedJob("stolen");
    const thief = await registeredAgent(project, { name: "stolen-thief" });
    await expectConflictEverywhere(
      thief,
      job.id,
      job.leaseToken,
      "lease_of_another_agent",
      /^This lease on job \S+ is agent "stolen-first"'s, not this agent's: only the agent that claimed a job may use its lease\.$/,
    );
  });
});
