// Confirmation before alarm on a real PostgreSQL, with an agent speaking the real job protocol and
// the background work that evaluates rules after runs land: a % bound rule that confirms first
// turns a planted single-batch outlier into no alert (and no webhook), still alerts on a real
// slowdown with both batches on the alert, opens the alert with the reason when the confirmation
// cannot run, and keeps the rule's record from users' real/noise marks.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cancelBatch } from "~/server/agents/batches";
import { jobWakeups } from "~/server/agents/wakeups";
import { drainBackgroundWork } from "~/server/background/worker";
import { db } from "~/server/db/client";
import { createAlertRule, judgeAlert, listAlertRules, listAlerts } from "~/server/regressions/alerts";
import { ZAlertRuleInput } from "~/server/schemas/alerts";
import type { TClaimedJob } from "~/server/schemas/jobs";
import { agentApi, batchOf, jobsProject, registeredAgent, type JobsProject, type TestAgent } from "~/test/agent-protocol";

const received: unknown[] = [];
let receiver: http.Server;
let receiverUrl: string;

beforeAll(async () => {
  process.env.VERSUS_WEBHOOK_ALLOWED_ADDRESSES = "127.0.0.1, ::1";
  receiver = http.createServer((req, res) => {
    let text = "";
    req.on("data", (chunk: Buffer) => (text += chunk.toString("utf8")));
    req.on("end", () => {
      received.push(JSON.parse(text));
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
});

afterAll(async () => {
  delete process.env.VERSUS_WEBHOOK_ALLOWED_ADDRESSES;
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
  await jobWakeups().close();
  await db.$disconnect();
});

let clock = Date.UTC(2026, 0, 1);
const commitOf = (i: number) => `${String(i).padStart(4, "0")}${"c".repeat(36)}`;

/** Claims and completes every job offered, each run's latency `level` (+ a little spread). */
async function runAll(agent: TestAgent, level: number) {
  for (let i = 0; ; i++) {
    const reply = await agentApi.claim(agent.credential, 0);
    if (reply.status === 204) return;
    const job = (reply.body as { job: TClaimedJob }).job;
    const v = level + (i % 3) * 0.1;
    const done = await agentApi.complete(agent.credential, job.id, { leaseToken: job.leaseToken, run: { metrics: [{ key: "latency", samples: [v, v] }] } });
    expect(done.status, JSON.stringify(done.body)).toBe(201);
  }
}

/** A batch of commit i on main run at `level`, then the background work its runs leave. */
async function commitBatch(project: JobsProject, agent: TestAgent, i: number, level: number) {
  clock += 3_600_000;
  const batch = await batchOf(db, project, { commit: commitOf(i), branch: "main", commitTime: new Date(clock).toISOString() });
  await runAll(agent, level);
  await drainBackgroundWork(db);
  return batch;
}

const alertsOf = async (project: JobsProject) =>
  (await listAlerts(db, { projectId: project.id }, { status: "all", limit: 50 })).alerts.sort((a, b) => a.commit.localeCompare(b.commit));

async function setUp(label: string) {
  const project = await jobsProject(db, label, { measuredRuns: 3 });
  const agent = await registeredAgent(project);
  const rule = await createAlertRule(
    db,
    { projectId: project.id },
    project.experimentSlug,
    ZAlertRuleInput.parse({
      metric: "latency",
      variant: "A",
      branch: "main",
      kind: "percent_bound",
      thresholdPercent: 5,
      windowSize: 3,
      confirmRuns: 5,
      webhookUrl: receiverUrl,
    }),
    null,
  );
  for (let i = 1; i <= 3; i++) await commitBatch(project, agent, i, 100);
  return { project, agent, rule };
}

describe("confirmation before alarm", () => {
  it("turns a planted single-batch outlier into no alert, and still alerts on a real 10% slowdown with both batches", async () => {
    const { project, agent, rule } = await setUp("confirm");
    received.length = 0;

    // Commit 4: one batch 30 % slow — the rule breaches, and a confirmation batch is dispatched instead of an alert.
    const outlier = await commitBatch(project, agent, 4, 130);
    let [pending] = await alertsOf(project);
    expect(pending).toMatchObject({ status: "confirming", commit: commitOf(4), batch: { id: outlier.id }, confirmation: null });
    const confirmBatch = await db.jobBatch.findUniqueOrThrow({ where: { id: pending!.confirmBatch!.id }, include: { jobs: { include: { variant: true } } } });
    // The flagging batch's definition (both variants, its commit), 5 measured runs a variant, interleaved.
    expect(confirmBatch).toMatchObject({ order: "interleaved", gitCommit: commitOf(4), gitBranch: "main" });
    expect(confirmBatch.jobs.map((job) => job.variant.name)).toEqual(["A", "B", "A", "B", "A", "B", "A", "B", "A", "B"]);
    expect(received).toEqual([]);

    // The confirmation runs at the old level: no alarm, and none announced.
    await runAll(agent, 100);
    await drainBackgroundWork(db);
    [pending] = await alertsOf(project);
    expect(pending).toMatchObject({
      status: "unconfirmed",
      confirmation: expect.stringMatching(/^Not confirmed: a confirmation batch of 5 runs had median 100\.\d+ ms .*within the 5% bound$/),
    });
    expect((await listAlerts(db, { projectId: project.id }, { status: "active", limit: 50 })).alerts).toEqual([]);
    expect(received).toEqual([]);

    // Commit 5: a real 10 % slowdown — the confirmation agrees, the alert opens with both batches, the webhook fires once.
    const slow = await commitBatch(project, agent, 5, 110);
    expect((await alertsOf(project))[1]).toMatchObject({ status: "confirming", batch: { id: slow.id } });
    await runAll(agent, 110);
    await drainBackgroundWork(db);
    const real = (await alertsOf(project))[1]!;
    expect(real).toMatchObject({
      status: "open",
      commit: commitOf(5),
      batch: { id: slow.id, _count: { jobs: 6 } },
      confirmBatch: { _count: { jobs: 10 } },
      confirmation: expect.stringMatching(
        /^Confirmed by a confirmation batch of 5 runs: median 110\.\d+ ms against 100\.\d+ ms before \(\+\d+\.\d\d%\), worse than the 5% bound$/,
      ),
    });
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({
      alert: { id: real.id, commit: commitOf(5), message: expect.stringContaining(" — Confirmed by a confirmation batch") },
    });

    // Users' marks make the rule's record; only alerts that alarmed can be marked.
    await judgeAlert(db, { projectId: project.id }, real.id, "real", (await db.user.create({ data: { email: `${project.slug}-judge@example.test` } })).id);
    await expect(judgeAlert(db, { projectId: project.id }, pending!.id, "noise", real.id)).rejects.toThrow(/unconfirmed: it never alarmed/);
    const [listed] = await listAlertRules(db, { projectId: project.id }, project.experimentSlug);
    expect(listed).toMatchObject({ id: rule.id, confirmRuns: 5, alerts: 1, record: { real: 1, noise: 0, unconfirmed: 1 } });
  });

  it("opens the alert at once, saying why, when no online agent can run the confirmation", async () => {
    const { project, agent } = await setUp("confirm-offline");
    received.length = 0;
    clock += 3_600_000;
    await batchOf(db, project, { commit: commitOf(9), branch: "main", commitTime: new Date(clock).toISOString() });
    await runAll(agent, 130);
    // The agent goes away before the background work dispatches the confirmation.
    await db.agent.update({ where: { id: agent.id }, data: { lastSeenAt: new Date(Date.now() - 3_600_000) } });
    await drainBackgroundWork(db);
    const [alert] = await alertsOf(project);
    expect(alert).toMatchObject({
      status: "open",
      confirmBatch: null,
      confirmation: expect.stringMatching(/^Not confirmed before alerting: the confirmation batch could not start \(No online agent can run this batch now/),
    });
    expect(received).toHaveLength(1);
    expect(await db.jobBatch.count({ where: { projectId: project.id } })).toBe(4);
  });

  it("opens the alert with the reason when its confirmation batch is cancelled, without waiting for more runs", async () => {
    const { project, agent } = await setUp("confirm-cancel");
    await commitBatch(project, agent, 7, 130);
    const [pending] = await alertsOf(project);
    await cancelBatch(db, project.id, pending!.confirmBatch!.id);
    // The cancellation itself marks the experiment for the work that settles the alert.
    await drainBackgroundWork(db);
    const [settled] = await alertsOf(project);
    expect(settled).toMatchObject({ status: "open", confirmation: "Not confirmed before alerting: the confirmation batch was cancelled" });
  });
});
