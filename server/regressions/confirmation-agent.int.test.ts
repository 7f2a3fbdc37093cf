// Confirmation before alarm with a real agent: the reference agent (agents/reference, a child
// process) runs the batches against this test's route server (the agent protocol's own route
// handlers on the integration database), its sleep workload's delay standing in for the code
// under test. A % bound rule that confirms first: a single batch planted 30 % slow (the delay
// raised for that batch only) gives no alert, while a real 10 % slowdown (the delay left raised)
// still alerts once its confirmation batch agrees. The delays are 500 ms and up: on a loaded
// machine a sleep overshoots by several ms, now and then by much more (a 100 ms sleep once took
// 270 ms here, and six 300 ms sleeps had a median of 307.9 ms), and medians of 5–6 runs of 500 ms
// keep that well inside the 5 % bound. A sleep can also end a little early by performance.now()
// (a timer counts from the event loop's cached time, which lags when the loop is busy: a median
// of 499.9 ms was seen for 500 ms), so the medians are read as numbers and checked against ranges.
import crypto from "node:crypto";
import type http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRouteServer, type RouteServer } from "~/test/route-server";
import { eventually, type Child } from "~/test/reliability/processes";
import { enrolledReferenceAgent } from "~/test/enrolled-agent";
import { serveDirectRoute } from "~/scripts/lib/direct-routes";

const { db } = await import("~/server/db/client");
const { jobsProject } = await import("~/test/agent-protocol");
const { jobWakeups } = await import("~/server/agents/wakeups");
const { drainBackgroundWork } = await import("~/server/background/worker");
const { startBatch } = await import("~/server/agents/batches");
const { createAlertRule, listAlerts } = await import("~/server/regressions/alerts");
const { ZAlertRuleInput } = await import("~/server/schemas/alerts");

let server: RouteServer;
let agent: Child;
let project: Awaited<ReturnType<typeof jobsProject>>;
let variantA: string;

async function handle(req: http.IncomingMessage, res: http.ServerResponse) {
  if (await serveDirectRoute(req, res, server.url)) return;
  res.writeHead(404).end();
}

const setDelay = (ms: number) => db.variant.update({ where: { id: variantA }, data: { config: { workload: "sleep", settings: { ms } } } });
let clock = Date.UTC(2026, 0, 1);
const commitOf = (i: number) => crypto.createHash("sha1").update(`confirm-agent ${i}`).digest("hex");

/** Waits until every job of the batch has finished (succeeded, for this test). */
async function finished(batchId: string) {
  await eventually(`batch ${batchId} to finish`, async () => (await db.job.count({ where: { batchId, status: { in: ["queued", "leased"] } } })) === 0, {
    context: () => agent.tail(),
  });
  expect(await db.job.count({ where: { batchId, status: { not: "succeeded" } } })).toBe(0);
}

/** Runs variant A at commit i with the delay `ms` for this batch, then `after` for what follows; the background work after it. */
async function commitBatch(i: number, ms: number, after = ms) {
  clock += 3_600_000;
  await setDelay(ms);
  const batch = await startBatch(db, project.id, null, {
    experimentSlug: project.experimentSlug,
    variants: ["A"],
    order: "interleaved",
    labels: {},
    maxAttempts: 3,
    commit: commitOf(i),
    branch: "main",
    commitTime: new Date(clock).toISOString(),
  });
  // Jobs carry the workload as it was when the batch started: what follows runs at `after`.
  await setDelay(after);
  await finished(batch.id);
  await drainBackgroundWork(db);
  return batch;
}

const alertAt = async (i: number) => db.alert.findFirst({ where: { projectId: project.id, commit: commitOf(i) } });

/** The medians an alert's confirmation text gives: that of the confirmation batch, then that of the runs before. */
function medians(confirmation: string | null | undefined) {
  const found = /median (\d+(?:\.\d+)?) ms against (\d+(?:\.\d+)?) ms before/.exec(confirmation ?? "");
  expect(found, `medians in ${confirmation}`).not.toBeNull();
  return { confirming: Number(found![1]), before: Number(found![2]) };
}

beforeAll(async () => {
  server = await startRouteServer(handle);
  project = await jobsProject(db, "confirm-agent", {
    measuredRuns: 5,
    variants: [
      { name: "A", isBaseline: true, config: { workload: "sleep", settings: { ms: 500 } } },
      { name: "B", isBaseline: false, config: { workload: "sleep", settings: { ms: 500 } } },
    ],
    metrics: [{ key: "slept_ms", unit: "ms", direction: "lower_is_better" }],
  });
  variantA = (await db.variant.findFirstOrThrow({ where: { name: "A", experiment: { projectId: project.id } } })).id;
  agent = await enrolledReferenceAgent(db, server.url, project, "confirm");
});

afterAll(async () => {
  await agent?.stop();
  await server?.close();
  await jobWakeups().close();
  await db.$disconnect();
});

describe("confirmation before alarm, with the reference agent", () => {
  it("a planted single-batch outlier gives no alert; a real 10% slowdown still alerts", async () => {
    await createAlertRule(
      db,
      { projectId: project.id },
      project.experimentSlug,
      ZAlertRuleInput.parse({ metric: "slept_ms", variant: "A", branch: "main", kind: "percent_bound", thresholdPercent: 5, windowSize: 3, confirmRuns: 6 }),
      null,
    );
    for (let i = 1; i <= 3; i++) await commitBatch(i, 500);

    // The outlier: one batch at 650 ms, the workload back at 500 ms before anything else runs.
    await commitBatch(4, 650, 500);
    const pending = await alertAt(4);
    expect(pending, agent.tail()).toMatchObject({ status: "confirming" });
    await finished(pending!.confirmBatchId!);
    await drainBackgroundWork(db);
    const outlier = await alertAt(4);
    expect(outlier, agent.tail()).toMatchObject({
      status: "unconfirmed",
      confirmation: expect.stringMatching(/^Not confirmed: a confirmation batch of 6 runs had median /),
    });
    const notConfirmed = medians(outlier!.confirmation);
    expect(notConfirmed.confirming).toBeGreaterThan(490);
    expect(notConfirmed.confirming).toBeLessThan(525);

    // The real slowdown: 550 ms from commit 5 on.
    await commitBatch(5, 550);
    const slow = await alertAt(5);
    expect(slow, agent.tail()).toMatchObject({ status: "confirming" });
    await finished(slow!.confirmBatchId!);
    await drainBackgroundWork(db);
    const confirmed = await alertAt(5);
    expect(confirmed, agent.tail()).toMatchObject({
      status: "open",
      confirmation: expect.stringMatching(/^Confirmed by a confirmation batch of 6 runs: median /),
    });
    const agreed = medians(confirmed!.confirmation);
    expect(agreed.confirming).toBeGreaterThan(540);
    expect(agreed.before).toBeGreaterThan(490);
    expect(agreed.before).toBeLessThan(525);
    const active = (await listAlerts(db, { projectId: project.id }, { status: "active", limit: 10 })).alerts;
    expect(active.map((alert) => alert.commit)).toEqual([commitOf(5)]);
  });
});
