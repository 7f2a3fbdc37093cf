// Faults: the server SIGKILLed between an upload and the work that follows it (the change-point
// refresh and the alert rules, done by the server's background worker a second after the runs).
// What must hold: the upload's runs left a mark in the database in their own transaction, so the
// next server to start does the work — its alert fires — although the process that took the
// upload never did; and with two servers running, the work is done once.
import crypto from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from "vitest";
import { createPrismaClient } from "~/server/db/client";
import { createApiKey } from "~/server/projects/api-keys";
import { createProject } from "~/server/projects/projects";
import { createAlertRule } from "~/server/regressions/alerts";
import { ZAlertRuleInput } from "~/server/schemas/alerts";
import { eventually, startServer, type Child } from "./processes";

const databaseUrl = inject("databaseUrl");
const db = createPrismaClient(databaseUrl);
const children: Child[] = [];
const track = <T extends Child>(child: T): T => (children.push(child), child);
const context = () => children.map((child) => child.tail()).join("\n");
let project: { id: string; slug: string; key: string };

beforeAll(async () => {
  const slug = `rel-bg-${crypto.randomBytes(3).toString("hex")}`;
  const created = await createProject(db, { name: slug, slug, description: "" });
  project = { id: created.id, slug, key: (await createApiKey(db, slug, "background work")).secret };
});
afterEach(async () => {
  await Promise.all(children.splice(0).map((child) => child.stop("SIGKILL")));
});
afterAll(() => db.$disconnect());

const sha = (i: number) => crypto.createHash("sha1").update(`rel bg ${i}`).digest("hex");

/** Commits 0..count−1 at 100 ms, 3 runs each; commit `slow` (if given) at 130 ms: +30%. */
function commits(experiment: string, from: number, to: number, slow?: number) {
  return {
    experiment,
    create: true,
    runs: Array.from({ length: (to - from) * 3 }, (_, i) => {
      const commit = from + Math.floor(i / 3);
      return {
        variant: "main",
        gitCommit: sha(commit),
        gitBranch: "main",
        gitCommitTime: new Date(Date.UTC(2026, 0, 1) + commit * 3_600_000).toISOString(),
        metrics: [{ key: "latency_ms", unit: "ms", direction: "lower_is_better", summary: { n: 10, mean: (commit === slow ? 130 : 100) + (i % 3) } }],
      };
    }),
  };
}

async function upload(url: string, body: object): Promise<void> {
  const response = await fetch(`${url}/api/v1/results`, {
    method: "POST",
    headers: { authorization: `Bearer ${project.key}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  expect(response.status, await response.clone().text()).toBeLessThan(300);
}

/** An experiment with 3 commits at 100 ms and a rule: alert when a commit is 5% worse than the 3 before it. */
async function watchedExperiment(url: string, experiment: string): Promise<string> {
  await upload(url, commits(experiment, 0, 3));
  const rule = ZAlertRuleInput.parse({ metric: "latency_ms", kind: "percent_bound", thresholdPercent: 5, windowSize: 3 });
  return (await createAlertRule(db, { projectId: project.id }, experiment, rule, null)).id;
}

describe("the work after an upload", () => {
  it("is done by the next server when the one that took the upload was killed before doing it", async () => {
    const first = track(await startServer({ databaseUrl }));
    const ruleId = await watchedExperiment(first.url, "killed-before-refresh");
    const experimentId = (await db.experiment.findFirstOrThrow({ where: { projectId: project.id, slug: "killed-before-refresh" } })).id;
    await eventually("the first commits' work is done", async () => (await db.runsStoredTask.count({ where: { experimentId } })) === 0, { context });

    // The slow commit, then SIGKILL at once: the work is due a second after the runs.
    await upload(first.url, commits("killed-before-refresh", 3, 4, 3));
    await first.stop("SIGKILL");
    expect(await db.runsStoredTask.count({ where: { experimentId } })).toBe(1);
    expect(await db.alert.count({ where: { ruleId } })).toBe(0);

    const second = track(await startServer({ databaseUrl }));
    const alert = await eventually(
      "the alert of the upload the killed server took",
      async () => (await db.alert.findFirst({ where: { ruleId } })) ?? undefined,
      { context, timeoutMs: 60_000 },
    );
    expect(alert).toMatchObject({ commit: sha(3) });
    expect(alert.message).toContain("worse than the 5% bound");
    await eventually("the mark is gone", async () => (await db.runsStoredTask.count({ where: { experimentId } })) === 0, { context });
    expect(second.running).toBe(true);
  });

  it("opens its alert once when two servers run, whichever of them does it", async () => {
    const [a, b] = [track(await startServer({ databaseUrl })), track(await startServer({ databaseUrl }))];
    const ruleId = await watchedExperiment(a.url, "two-servers");
    await upload(b.url, commits("two-servers", 3, 4, 3));
    await eventually("the alert", async () => (await db.alert.findFirst({ where: { ruleId } })) ?? undefined, { context, timeoutMs: 60_000 });
    const experimentId = (await db.experiment.findFirstOrThrow({ where: { projectId: project.id, slug: "two-servers" } })).id;
    await eventually("no mark left", async () => (await db.runsStoredTask.count({ where: { experimentId } })) === 0, { context });
    expect(await db.alert.count({ where: { ruleId } })).toBe(1);
  });
});
