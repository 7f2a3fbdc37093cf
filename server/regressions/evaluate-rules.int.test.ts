// Alert rules on a real PostgreSQL, driven the way production drives them: runs are uploaded
// through POST /api/v1/results's route handler, whose background refresh evaluates the rules
// (server/background/worker.ts). Each kind opens an alert on a breach and not before it,
// once per rule, variant and commit however often runs arrive; webhooks are POSTed to a local
// HTTP server (and a failing one, and one that is not there), and the upload never fails.
import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "~/server/db/client";
import { drainBackgroundWork } from "~/server/background/worker";
import { ZAlertRuleInput, ZAlertWebhookBody, type TAlertRuleFormValues } from "~/server/schemas/alerts";
import { createApiKey } from "~/server/projects/api-keys";
import { createAlertRule, listAlerts, reviewAlert } from "~/server/regressions/alerts";
import { createProject } from "~/server/projects/projects";
import { mulberry32, standardNormal } from "~/server/stats/prng";
import { uploadStored } from "~/test/rest-assertions";

let project: { id: string; slug: string; key: string };
let userId: string;
const received: { status: number; body: unknown }[] = [];
let receiver: http.Server;
let receiverUrl: string;

beforeAll(async () => {
  // The test's webhook receivers listen on loopback, which webhooks may reach only when allowed.
  process.env.VERSUS_WEBHOOK_ALLOWED_ADDRESSES = "127.0.0.1, ::1";
  const slug = `alerts-${crypto.randomBytes(4).toString("hex")}`;
  const created = await createProject(db, { name: slug, slug, description: "" });
  project = { id: created.id, slug, key: (await createApiKey(db, slug, "alerts")).secret };
  userId = (await db.user.create({ data: { email: `${slug}@example.test` } })).id;
  // /ok answers 204, /broken 500; both record what they got.
  receiver = http.createServer((req, res) => {
    let text = "";
    req.on("data", (chunk: Buffer) => (text += chunk.toString("utf8")));
    req.on("end", () => {
      const status = req.url === "/broken" ? 500 : 204;
      received.push({ status, body: JSON.parse(text) });
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});

afterAll(async () => {
  delete process.env.VERSUS_WEBHOOK_ALLOWED_ADDRESSES;
  await drainBackgroundWork(db);
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
  await db.$disconnect();
});

const sha = () => crypto.randomBytes(20).toString("hex");
let clock = Date.UTC(2026, 0, 1);

/** One commit's runs, uploaded through the REST handler; waits for the background evaluation. */
async function commit(experiment: string, values: number[], options: { commit?: string; branch?: string; variant?: string } = {}) {
  const gitCommit = options.commit ?? sha();
  clock += 3_600_000;
  await uploadStored(project.key, {
    experiment,
    create: true,
    runs: values.map((value) => ({
      variant: options.variant ?? "main",
      gitCommit,
      gitBranch: options.branch ?? "main",
      gitCommitTime: new Date(clock).toISOString(),
      metrics: [{ key: "latency_ms", unit: "ms", direction: "lower_is_better", summary: { n: 10, mean: value } }],
    })),
  });
  await drainBackgroundWork(db);
  return gitCommit;
}

const runsAround = (level: number, n: number, seed: number) => {
  const random = mulberry32(seed);
  return Array.from({ length: n }, () => level * (1 + 0.01 * standardNormal(random)));
};

async function rule(experiment: string, input: TAlertRuleFormValues) {
  return (await createAlertRule(db, { projectId: project.id }, experiment, ZAlertRuleInput.parse(input), userId)).id;
}

const alertsOf = (ruleId: string) => db.alert.findMany({ where: { ruleId }, orderBy: { createdAt: "asc" } });

describe("a % bound rule", () => {
  it("opens one alert when the latest commit's median is worse than the previous window's by more than the bound, never twice for a commit", async () => {
    const experiment = `bound-${crypto.randomBytes(3).toString("hex")}`;
    await commit(experiment, runsAround(100, 3, 1));
    const ruleId = await rule(experiment, { metric: "latency_ms", kind: "percent_bound", thresholdPercent: 5, windowSize: 3, branch: "main" });
    for (let i = 2; i <= 4; i++) await commit(experiment, runsAround(100, 3, i));
    // +3%: inside the bound.
    await commit(experiment, [103, 103.2, 102.9]);
    expect(await alertsOf(ruleId)).toEqual([]);
    // +10% against the three commits before it.
    const slow = await commit(experiment, [110, 110.4, 109.8]);
    const [alert, ...rest] = await alertsOf(ruleId);
    expect(rest).toEqual([]);
    expect(alert).toMatchObject({ commit: slow, status: "open", branch: "main", webhookStatus: null });
    expect(alert!.value).toBeCloseTo(110, 6);
    expect(alert!.changePercent).toBeGreaterThan(5);
    expect(alert!.message).toMatch(
      /^latency_ms on main \(main\): 110 ms at [0-9a-f]{12} is \+\d+\.\d\d% against 10\d(\.\d+)? ms, the median of the 3 commit\(s\) before — worse than the 5% bound$/,
    );

    // More runs of the same commit (a re-run in CI): still one alert.
    await commit(experiment, [110.1, 110.2], { commit: slow });
    expect(await alertsOf(ruleId)).toHaveLength(1);

    // An improvement of a lower-is-better metric is no breach, however large.
    const fast = await commit(experiment, [80, 80.5, 79.5]);
    expect((await alertsOf(ruleId)).map((a) => a.commit)).toEqual([slow]);
    expect(fast).not.toBe(slow);
  });

  it("watches only its branch and its variant", async () => {
    const experiment = `scoped-${crypto.randomBytes(3).toString("hex")}`;
    for (let i = 0; i < 3; i++) await commit(experiment, runsAround(100, 3, 10 + i));
    await commit(experiment, runsAround(100, 3, 20), { variant: "gzip" });
    const ruleId = await rule(experiment, { metric: "latency_ms", kind: "percent_bound", thresholdPercent: 5, windowSize: 3, branch: "main", variant: "gzip" });
    await commit(experiment, [120, 121, 122]); // variant main: not this rule's
    await commit(experiment, [120, 121, 122], { variant: "gzip", branch: "feature" }); // another branch
    expect(await alertsOf(ruleId)).toEqual([]);
    await commit(experiment, [120, 121, 122], { variant: "gzip" });
    expect(await alertsOf(ruleId)).toHaveLength(1);
  });
});

describe("a Mann-Whitney rule", () => {
  it("alerts when the last N runs are significantly worse than the M before them", async () => {
    const experiment = `mw-${crypto.randomBytes(3).toString("hex")}`;
    await commit(experiment, runsAround(50, 5, 30));
    const ruleId = await rule(experiment, { metric: "latency_ms", kind: "mann_whitney", recentRuns: 5, windowSize: 10, alpha: 0.05 });
    await commit(experiment, runsAround(50, 5, 31));
    // 5 runs within noise of the 10 before: no alert.
    await commit(experiment, runsAround(50, 5, 32));
    expect(await alertsOf(ruleId)).toEqual([]);
    // 5 runs 6% slower than the 10 before them.
    const slow = await commit(experiment, runsAround(53, 5, 33));
    const alerts = await alertsOf(ruleId);
    expect(alerts.map((a) => a.commit)).toEqual([slow]);
    expect(alerts[0]!.pValue).toBeLessThanOrEqual(0.05);
    expect(alerts[0]!.message).toContain("the last 5 runs");
    expect(alerts[0]!.message).toMatch(/Mann-Whitney p = [\d.e-]+ ≤ α = 0\.05$/);
  });

  it("refuses a window the test could never resolve", () => {
    const parsed = ZAlertRuleInput.safeParse({ metric: "m", kind: "mann_whitney", recentRuns: 3, windowSize: 10, alpha: 0.05 });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((i) => [i.path.join("."), i.message])).toEqual([["recentRuns", "needs ≥ 4 runs for the test to reach α = 0.05"]]);
    const missing = ZAlertRuleInput.safeParse({ metric: "m", kind: "percent_bound" });
    expect(missing.error?.issues.map((i) => i.path.join("."))).toEqual(["thresholdPercent", "windowSize"]);
  });
});

describe("a change-point rule", () => {
  it("alerts on a newly found change point that is a regression, not on an improvement", async () => {
    const experiment = `cp-${crypto.randomBytes(3).toString("hex")}`;
    await commit(experiment, runsAround(100, 3, 40));
    const ruleId = await rule(experiment, { metric: "latency_ms", kind: "change_point", alpha: 0.05, branch: "main" });
    // 15 commits at 100, then 15 at 110 (+10%, a regression), uploaded together.
    const random = mulberry32(41);
    const shas = Array.from({ length: 30 }, () => sha());
    await uploadStored(project.key, {
      experiment,
      runs: shas.flatMap((gitCommit, i) =>
        [0, 1, 2].map(() => ({
          variant: "main",
          gitCommit,
          gitBranch: "main",
          gitCommitTime: new Date(clock + (i + 1) * 3_600_000).toISOString(),
          metrics: [
            {
              key: "latency_ms",
              unit: "ms",
              direction: "lower_is_better",
              summary: { n: 10, mean: (i < 15 ? 100 : 110) * (1 + 0.01 * standardNormal(random)) },
            },
          ],
        })),
      ),
    });
    clock += 31 * 3_600_000;
    await drainBackgroundWork(db);
    const alerts = await alertsOf(ruleId);
    expect(alerts).toHaveLength(1);
    // The change point is within ±2 commits of the shift.
    expect(Math.abs(shas.indexOf(alerts[0]!.commit) - 15)).toBeLessThanOrEqual(2);
    expect(alerts[0]!.changePercent).toBeGreaterThan(5);
    expect(alerts[0]!.message).toContain("a regression (change point p = ");

    // Falling back to 100 is an improvement: a new change point, no new alert.
    for (let i = 0; i < 15; i++) await commit(experiment, runsAround(100, 3, 50 + i));
    const after = await db.changePoint.count({ where: { experiment: { slug: experiment, projectId: project.id }, branch: "main" } });
    expect(after).toBeGreaterThanOrEqual(2);
    expect(await alertsOf(ruleId)).toHaveLength(1);
  });
});

describe("webhooks", () => {
  it("POSTs each new alert as JSON with a Slack-compatible text, records a failure, and never fails the upload", async () => {
    const experiment = `hook-${crypto.randomBytes(3).toString("hex")}`;
    for (let i = 0; i < 3; i++) await commit(experiment, runsAround(100, 3, 70 + i));
    const good = await rule(experiment, { metric: "latency_ms", kind: "percent_bound", thresholdPercent: 5, windowSize: 3, webhookUrl: `${receiverUrl}/ok` });
    const broken = await rule(experiment, {
      metric: "latency_ms",
      kind: "percent_bound",
      thresholdPercent: 5,
      windowSize: 3,
      webhookUrl: `${receiverUrl}/broken`,
    });
    // A port nothing listens on.
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const closedUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}/`;
    await new Promise((resolve) => closed.close(resolve));
    const unreachable = await rule(experiment, { metric: "latency_ms", kind: "percent_bound", thresholdPercent: 5, windowSize: 3, webhookUrl: closedUrl });

    received.length = 0;
    const slow = await commit(experiment, [120, 121, 119]); // uploadStored checks the upload answered 201

    const [sent] = await alertsOf(good);
    expect(sent).toMatchObject({ commit: slow, webhookStatus: "sent", webhookError: null });
    const [failed] = await alertsOf(broken);
    expect(failed).toMatchObject({ webhookStatus: "failed", webhookError: "HTTP 500 Internal Server Error" });
    const [nobody] = await alertsOf(unreachable);
    expect(nobody).toMatchObject({ webhookStatus: "failed", webhookError: "could not connect (ECONNREFUSED)" });

    expect(received.map((r) => r.status).sort()).toEqual([204, 500]);
    const body = ZAlertWebhookBody.parse(received.find((r) => r.status === 204)!.body);
    expect(body.text).toMatch(/^:rotating_light: Versus alert — hook-[0-9a-f]+: latency_ms \(main\): 120 ms at /);
    expect(body.alert).toMatchObject({
      id: sent!.id,
      experiment,
      metric: "latency_ms",
      unit: "ms",
      direction: "lower_is_better",
      variant: "main",
      commit: slow,
      rule: { id: good, kind: "percent_bound" },
    });
    expect(body.alert.value).toBeCloseTo(120, 6);
    expect(body.alert.url).toMatch(new RegExp(`/p/${project.slug}/alerts$`));

    // The same commit again: no second alert, no second POST.
    await commit(experiment, [120.5], { commit: slow });
    expect(received).toHaveLength(2);
  });
});

describe("reviewing alerts", () => {
  it("lists the active ones, acknowledges then resolves, refuses going back, and hides other projects' alerts", async () => {
    const { alerts, open } = await listAlerts(db, { projectId: project.id }, { status: "active", limit: 200 });
    expect(alerts.length).toBeGreaterThan(0);
    expect(open).toBe(alerts.filter((a) => a.status === "open").length);
    const first = alerts[0]!;
    await reviewAlert(db, { projectId: project.id }, first.id, "acknowledged", userId);
    await expect(reviewAlert(db, { projectId: project.id }, first.id, "acknowledged", userId)).rejects.toMatchObject({ code: "CONFLICT" });
    await reviewAlert(db, { projectId: project.id }, first.id, "resolved", userId);
    const resolved = await listAlerts(db, { projectId: project.id }, { status: "resolved", limit: 200 });
    expect(resolved.alerts.map((a) => a.id)).toContain(first.id);
    expect(resolved.alerts.find((a) => a.id === first.id)?.reviewedAt).not.toBeNull();
    await expect(reviewAlert(db, { projectId: project.id }, first.id, "acknowledged", userId)).rejects.toMatchObject({
      code: "CONFLICT",
      message: "The alert is already resolved",
    });

    const other = await createProject(db, { name: "other", slug: `other-${crypto.randomBytes(4).toString("hex")}`, description: "" });
    await expect(reviewAlert(db, { projectId: other.id }, alerts[1]!.id, "resolved", userId)).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect((await listAlerts(db, { projectId: other.id }, { status: "all", limit: 200 })).alerts).toEqual([]);
  });
});
