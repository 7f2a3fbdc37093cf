// `versus run --experiment … --wait` as CI runs it: a child process (`node scripts/cli/bin.mjs
// run …`) talking over real HTTP to a Node http server in this test that serves the batch routes
// and the agent protocol through their exported route handlers, on the integration database,
// while the reference agent (agents/reference, a child process too) runs the jobs. The exit code
// is the verdict: 1 on a regression, 0 otherwise, 2 when it could not run — and then nothing
// was started.
import crypto from "node:crypto";
import type http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "~/test/cli-process";
import { startRouteServer, type RouteServer } from "~/test/route-server";
import { type Child } from "~/test/reliability/processes";
import { enrolledReferenceAgent } from "~/test/enrolled-agent";
import { fetchRequestOf, sendResponse } from "../lib/fetch-bridge";
import { serveDirectRoute } from "../lib/direct-routes";

const { POST: postBatch } = await import("~/app/api/v1/experiments/[slugOrId]/batches/route");
const { GET: getBatch } = await import("~/app/api/v1/batches/[id]/route");
const { POST: cancelBatch } = await import("~/app/api/v1/batches/[id]/cancel/route");
const { db } = await import("~/server/db/client");
const { createApiKey } = await import("~/server/projects/api-keys");
const { createExperiment } = await import("~/server/experiments/experiments");
const { ZExperimentInput } = await import("~/server/schemas/experiment");
const { jobsProject } = await import("~/test/agent-protocol");
const { jobWakeups } = await import("~/server/agents/wakeups");

let server: RouteServer;
let baseUrl: string;
let agent: Child;
let project: Awaited<ReturnType<typeof jobsProject>>;
let runKey: string;
let uploadKey: string;
const COMMIT = crypto.randomBytes(20).toString("hex");

async function handle(req: http.IncomingMessage, res: http.ServerResponse) {
  if (await serveDirectRoute(req, res, baseUrl)) return;
  const url = new URL(req.url ?? "/", baseUrl);
  const start = /^\/api\/v1\/experiments\/([^/]+)\/batches$/.exec(url.pathname);
  const cancel = /^\/api\/v1\/batches\/([^/]+)\/cancel$/.exec(url.pathname);
  const batch = /^\/api\/v1\/batches\/([^/]+)$/.exec(url.pathname);
  let response: Response;
  if (req.method === "POST" && start)
    response = await postBatch(fetchRequestOf(req, url), { params: Promise.resolve({ slugOrId: decodeURIComponent(start[1]!) }) });
  else if (req.method === "POST" && cancel) response = await cancelBatch(fetchRequestOf(req, url), { params: Promise.resolve({ id: cancel[1]! }) });
  else if (req.method === "GET" && batch) response = await getBatch(fetchRequestOf(req, url), { params: Promise.resolve({ id: batch[1]! }) });
  else response = Response.json({ error: { code: "NOT_FOUND", message: `no route ${req.method} ${url.pathname}` } }, { status: 404 });
  await sendResponse(res, response);
}

/** An experiment of the project whose variants sleep `ms` each (the reference agent's sleep workload). */
async function sleepExperiment(slug: string, variants: { name: string; ms?: number }[]) {
  await createExperiment(
    db,
    project.slug,
    ZExperimentInput.parse({
      title: slug,
      slug,
      // A warm-up each: the agent's first job also loads its code, and a sleep that overslept
      // then is an outlier the five runs cannot outvote.
      warmupRuns: 1,
      measuredRuns: 5,
      variants: variants.map((variant, i) => ({
        name: variant.name,
        isBaseline: i === 0,
        config: variant.ms === undefined ? {} : { workload: "sleep", settings: { ms: variant.ms } },
      })),
      metrics: [{ key: "slept_ms", unit: "ms", direction: "lower_is_better" }],
    }),
  );
  return slug;
}

const run = (args: string[], key = runKey) =>
  runCli(["run", ...args], { VERSUS_URL: baseUrl, VERSUS_API_KEY: key, VERSUS_RETRY_SECONDS: "0", GITHUB_STEP_SUMMARY: undefined });
const batchesOfProject = () => db.jobBatch.count({ where: { projectId: project.id } });

beforeAll(async () => {
  server = await startRouteServer(handle);
  baseUrl = server.url;
  project = await jobsProject(db, "cli-run");
  runKey = (await createApiKey(db, project.slug, "ci runs", undefined, "run")).secret;
  uploadKey = (await createApiKey(db, project.slug, "ci uploads", undefined, "upload")).secret;
  agent = await enrolledReferenceAgent(db, baseUrl, project, "cli-run");
});

afterAll(async () => {
  await agent?.stop();
  await server?.close();
  await jobWakeups().close();
  await db.$disconnect();
});

describe("versus run --wait", () => {
  it("exits 1 when a variant is slower than the baseline, with the verdict as Markdown and the commit on the runs", async () => {
    const slug = await sleepExperiment("slower", [
      { name: "Fast", ms: 5 },
      { name: "Slow", ms: 60 },
    ]);
    const result = await run(["--experiment", slug, "--wait", "--commit", COMMIT, "--branch", "main"]);
    expect(result.code, `${result.stderr}\n${agent.tail()}`).toBe(1);
    expect(result.stdout).toContain("## Versus run: ❌ Regression");
    expect(result.stdout).toContain("Worse: `slept_ms` (Slow)");
    expect(result.stderr).toMatch(/started batch \S+: 12 jobs of "Fast", "Slow" \(interleaved\)/);
    expect(result.stderr).toContain("12/12 jobs done");
    expect(result.stderr).toContain("versus run: regression in slept_ms (Slow)");
    const runs = await db.run.findMany({ where: { experiment: { slug, projectId: project.id } }, select: { gitCommit: true, gitBranch: true } });
    expect(runs).toHaveLength(10);
    expect(new Set(runs.map((r) => `${r.gitCommit}@${r.gitBranch}`))).toEqual(new Set([`${COMMIT}@main`]));
  });

  it("--confirm: a regression starts a confirmation batch, and exits 1 only because it agrees", async () => {
    const slug = await sleepExperiment("confirmed", [
      { name: "Fast", ms: 5 },
      { name: "Slow", ms: 60 },
    ]);
    const result = await run(["--experiment", slug, "--wait", "--confirm", "4", "--commit", COMMIT, "--branch", "main"]);
    expect(result.code, `${result.stderr}\n${agent.tail()}`).toBe(1);
    expect(result.stderr).toContain("versus run: confirming the regression with 4 runs a variant");
    expect(result.stderr).toMatch(/started batch \S+: 10 jobs of "Fast", "Slow" \(interleaved\) at /);
    expect(result.stderr).toContain("versus run: regression confirmed in slept_ms (Slow)");
    const batches = await db.jobBatch.findMany({
      where: { experiment: { slug, projectId: project.id } },
      select: { gitCommit: true, _count: { select: { jobs: true } } },
    });
    expect(batches.map((batch) => batch._count.jobs).sort()).toEqual([10, 12]);
    expect(new Set(batches.map((batch) => batch.gitCommit))).toEqual(new Set([COMMIT]));
  });

  it("--confirm starts no confirmation when there is no regression", async () => {
    const slug = await sleepExperiment("unconfirmed", [
      { name: "Before", ms: 60 },
      { name: "After", ms: 5 },
    ]);
    const result = await run(["--experiment", slug, "--wait", "--confirm", "4"]);
    expect(result.code, `${result.stderr}\n${agent.tail()}`).toBe(0);
    expect(result.stderr).not.toContain("confirming");
    expect(await db.jobBatch.count({ where: { experiment: { slug, projectId: project.id } } })).toBe(1);
  });

  it("exits 0 when the candidate is faster, with the runs asked for", async () => {
    const slug = await sleepExperiment("faster", [
      { name: "Before", ms: 60 },
      { name: "After", ms: 5 },
    ]);
    const result = await run(["--experiment", slug, "--wait", "--runs", "4", "--order", "random", "--seed", "7"]);
    expect(result.code, `${result.stderr}\n${agent.tail()}`).toBe(0);
    expect(result.stdout).toContain("## Versus run: ✅ Improvement");
    expect(result.stderr).toMatch(/10 jobs of "Before", "After" \(random, seed 7\)/);
  });

  it("--noise measures the agent's noise floor, and the next verdict shows it", async () => {
    const slug = await sleepExperiment("noise", [
      { name: "Base", ms: 20 },
      { name: "Other", ms: 20 },
    ]);
    const measured = await run(["--experiment", slug, "--noise", "--wait"]);
    expect(measured.code, `${measured.stderr}\n${agent.tail()}`).toBe(0);
    expect(measured.stderr).toMatch(/started noise \(A\/A\) batch \S+: 11 jobs of "Base"/);
    expect(measured.stdout).toContain("## Versus noise floor");
    expect(measured.stdout).toMatch(/\| `slept_ms` \| cli-run-\w+ \| 10 \|.* with 5 \| \d+ \|$/m);

    const verdict = await run(["--experiment", slug, "--wait"]);
    expect([0, 1], verdict.stderr).toContain(verdict.code);
    expect(verdict.stdout).toMatch(
      /Noise floor of `slept_ms` on cli-run-\w+ \(A\/A batch of [\d-]+\): changes under ±[\d.]+% cannot be seen with 5 runs here( \(\d+ runs a side would see ±2%\))?\./,
    );
  });

  it("without --wait prints the batch id and exits 0", async () => {
    const slug = await sleepExperiment("no-wait", [
      { name: "A", ms: 1 },
      { name: "B", ms: 1 },
    ]);
    const result = await run(["--experiment", slug, "--runs", "1"]);
    expect(result.code, result.stderr).toBe(0);
    const id = result.stdout.trim();
    expect(await db.jobBatch.findFirst({ where: { id, projectId: project.id } })).not.toBeNull();
  });
});

describe("versus run that cannot run exits 2 and starts nothing", () => {
  it("an unknown experiment, a variant without a workload, an upload-only key, a bad flag", async () => {
    const manual = await sleepExperiment("manual", [{ name: "Auto", ms: 1 }, { name: "By hand" }]);
    const before = await batchesOfProject();

    const unknown = await run(["--experiment", "no-such-experiment", "--wait"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('404 Not Found: No experiment "no-such-experiment" in this project');

    const noWorkload = await run(["--experiment", manual, "--wait"]);
    expect(noWorkload.code).toBe(2);
    expect(noWorkload.stderr).toContain('Variant "By hand" has no workload');

    const uploadOnly = await run(["--experiment", manual, "--variant", "Auto", "--wait"], uploadKey);
    expect(uploadOnly.code).toBe(2);
    expect(uploadOnly.stderr).toContain("403 Forbidden");

    const badRuns = await run(["--experiment", manual, "--runs", "many"]);
    expect(badRuns.code).toBe(2);
    expect(badRuns.stderr).toContain('--runs must be a whole number, not "many"');

    const badOrder = await run(["--experiment", manual, "--order", "sideways"]);
    expect(badOrder.code).toBe(2);

    const confirmWithoutWait = await run(["--experiment", manual, "--variant", "Auto", "--confirm", "4"]);
    expect(confirmWithoutWait.code).toBe(2);
    expect(confirmWithoutWait.stderr).toContain("--confirm needs --wait");

    expect(await batchesOfProject()).toBe(before);
  });

  it("no online agent able to run it", async () => {
    const lonely = await jobsProject(db, "cli-run-no-agent", {
      variants: [
        { name: "A", isBaseline: true, config: { workload: "sleep", settings: { ms: 1 } } },
        { name: "B", isBaseline: false, config: { workload: "sleep", settings: { ms: 2 } } },
      ],
      metrics: [{ key: "slept_ms", unit: "ms", direction: "lower_is_better" }],
    });
    const key = (await createApiKey(db, lonely.slug, "ci", undefined, "run")).secret;
    const result = await run(["--experiment", lonely.experimentSlug, "--wait"], key);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("No online agent can run this batch now, so nothing was started");
    expect(await db.jobBatch.count({ where: { projectId: lonely.id } })).toBe(0);
  });
});
