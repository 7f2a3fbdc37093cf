// `versus check` as CI runs it: a child process (`node scripts/cli/bin.mjs check …`) talking over
// real HTTP to a Node http server in this test that hands each request to the exported route
// handler of GET /api/v1/experiments/{slugOrId}/check, on the integration database. The exit
// code is the gate: 1 on a regression, 0 on an improvement or no change, 2 when it cannot check.
// A regression or improvement needs a significant change of at least --min-change % (default
// DEFAULT_MIN_CHANGE_PERCENT); which one it is follows the metric's direction.
import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "~/test/cli-process";
import { around, sha, uploadCommits } from "~/test/commit-history";
import { fetchRequestOf, sendResponse } from "../lib/fetch-bridge";

const { GET: getCheck } = await import("~/app/api/v1/experiments/[slugOrId]/check/route");
const { POST: postImports } = await import("~/app/api/v1/imports/route");
const { db } = await import("~/server/db/client");
const { createApiKey } = await import("~/server/projects/api-keys");
const { createProject } = await import("~/server/projects/projects");

const repoRoot = path.resolve(import.meta.dirname, "../..");

let server: http.Server;
let baseUrl: string;
let apiKey: string;
let tmp: string;
const experiment = "gzip-history";
const history = Array.from({ length: 6 }, (_, i) => ({ sha: sha(), branch: "main", values: around(100 + (i % 2) * 0.3) }));
const regression = { sha: sha(), branch: "feature", values: around(110) };
const improvement = { sha: sha(), branch: "feature", values: around(90) };
const unchanged = { sha: sha(), branch: "feature", values: around(100.1) };
/** +1.7%: every run above the window's, so significant, but under the default 2%. */
const slightlySlower = { sha: sha(), branch: "feature", values: around(101.8) };
// A higher-is-better metric (throughput): down is the regression, up the improvement.
const throughput = "throughput-history";
const throughputHistory = Array.from({ length: 6 }, (_, i) => ({ sha: sha(), branch: "main", values: around(100 + (i % 2) * 0.3) }));
const throughputDown = { sha: sha(), branch: "feature", values: around(90) };
const throughputUp = { sha: sha(), branch: "feature", values: around(110) };

/** A Node request as a Fetch Request for the route handlers (the body streamed for a POST). */
async function handle(req: http.IncomingMessage, res: http.ServerResponse) {
  const url = new URL(req.url ?? "/", baseUrl);
  const check = /^\/api\/v1\/experiments\/([^/]+)\/check$/.exec(url.pathname);
  let response: Response;
  if (req.method === "POST" && url.pathname === "/api/v1/imports") response = await postImports(fetchRequestOf(req, url));
  else if (req.method === "GET" && check)
    response = await getCheck(fetchRequestOf(req, url), { params: Promise.resolve({ slugOrId: decodeURIComponent(check[1]!) }) });
  else response = Response.json({ error: { code: "NOT_FOUND", message: `no route ${req.method} ${url.pathname}` } }, { status: 404 });
  await sendResponse(res, response);
}

const cli = (args: string[], env: Record<string, string | undefined> = {}) =>
  runCli(args, { VERSUS_URL: baseUrl, VERSUS_API_KEY: apiKey, GITHUB_STEP_SUMMARY: undefined, ...env });

const check = (commit: string, extra: string[] = [], env: Record<string, string | undefined> = {}, slug = experiment) =>
  cli(["check", "--experiment", slug, "--branch", "main", "--commit", commit, ...extra], env);

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "versus-check-"));
  const slug = `check-${crypto.randomBytes(4).toString("hex")}`;
  const project = await createProject(db, { name: slug, slug, description: "" });
  apiKey = (await createApiKey(db, slug, "ci")).secret;
  await uploadCommits(db, project, experiment, [...history, regression, improvement, unchanged, slightlySlower]);
  await uploadCommits(db, project, throughput, [...throughputHistory, throughputDown, throughputUp], undefined, "higher_is_better");
  server = http.createServer((req, res) => {
    handle(req, res).catch((error: unknown) => res.writeHead(500).end(String(error)));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await db.$disconnect();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe("versus import --commit --branch --commit-message --commit-time", () => {
  it("stores the commit, branch, subject line and commit time on every imported run, so the gate can check it", async () => {
    const commit = sha();
    const wrk = path.join(repoRoot, "server/importers/fixtures/wrk/wrk-latency.txt");
    const result = await cli([
      "import",
      wrk,
      "--format",
      "wrk",
      "--experiment",
      "wrk-history",
      "--variant",
      "nginx",
      "--create",
      "--commit",
      commit,
      "--branch",
      "feature-x",
      "--commit-message",
      "Tune keep-alive",
      "--commit-time",
      "2026-03-04T05:06:07+02:00",
    ]);
    expect(result.code, result.stderr).toBe(0);
    const runs = await db.run.findMany({
      where: { experiment: { slug: "wrk-history" }, gitCommit: commit },
      select: { gitBranch: true, gitCommitMessage: true, gitCommitTime: true },
    });
    expect(runs).toEqual([{ gitBranch: "feature-x", gitCommitMessage: "Tune keep-alive", gitCommitTime: new Date("2026-03-04T03:06:07Z") }]);
    const badTime = await cli([
      "import",
      wrk,
      "--format",
      "wrk",
      "--experiment",
      "wrk-history",
      "--variant",
      "nginx",
      "--commit",
      commit,
      "--commit-time",
      "yesterday",
    ]);
    expect(badTime.code).not.toBe(0);
    expect(badTime.stderr).toContain("commitTime");
    const checked = await cli(["check", "--experiment", "wrk-history", "--branch", "main", "--commit", commit]);
    expect(checked.code, checked.stderr).toBe(0);
    expect(checked.stdout).toContain("no earlier commit on `main` has runs");
  });
});

describe("versus check", () => {
  it("a regression: exit 1, the report's table in Markdown on stdout, the verdict on stderr", async () => {
    const result = await check(regression.sha);
    expect(result.code, result.stderr).toBe(1);
    expect(result.stdout).toContain("## Versus check: ❌ Regression");
    expect(result.stdout).toContain("- Threshold: a metric is worse or better when its change is significant (p ≤ α) and at least 2% either way");
    expect(result.stdout).toContain(`commit \`${regression.sha.slice(0, 12)}\``);
    // The experiment report's table, with the window as the baseline and the commit as candidate.
    expect(result.stdout).toContain("| Variant | Runs | Median [95% CI] | Mean ± sd | Min … max | Change vs main: 5 commits before [CI] | p | Verdict |");
    expect(result.stdout).toMatch(new RegExp(`\\| ${regression.sha.slice(0, 12)} \\| 5 \\| 110(\\.\\d+)? ms .*\\(worse\\).* \\| worse \\|`));
    expect(result.stdout).toMatch(/\| main: 5 commits before \(baseline\) \| 25 \|/);
    expect(result.stdout).toContain("- Worse: `latency_ms` +");
    // The window is the 5 commits before it on main, newest first.
    expect(result.stdout).toContain(
      history
        .slice(1)
        .reverse()
        .map((c) => `\`${c.sha.slice(0, 7)}\``)
        .join(", "),
    );
    expect(result.stderr).toContain("versus check: regression in latency_ms");
  });

  it("an improvement: exit 0", async () => {
    const result = await check(improvement.sha);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain("✅ Improvement");
    expect(result.stdout).toContain("- Better: `latency_ms` −");
    expect(result.stdout).toMatch(/\| better \|/);
  });

  it("no change: exit 0", async () => {
    const result = await check(unchanged.sha);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain("✅ No change");
    expect(result.stdout).toMatch(/\| no significant change \|/);
    expect(result.stderr).toContain("versus check: no change");
  });

  it("a significant change under the threshold: exit 0 as no change; a lower --min-change makes it a regression (exit 1)", async () => {
    const below = await check(slightlySlower.sha, ["--format", "json"]);
    expect(below.code, below.stderr).toBe(0);
    const body = JSON.parse(below.stdout) as {
      verdict: string;
      minChangePercent: number;
      metrics: { verdict: string; changePercent: number; belowMinChange: boolean; reason: string }[];
      markdown: string;
    };
    expect(body.minChangePercent).toBe(2);
    expect(body.verdict).toBe("no_change");
    expect(body.metrics[0]).toMatchObject({ verdict: "no_change", belowMinChange: true });
    expect(body.metrics[0]!.changePercent).toBeGreaterThan(1);
    expect(body.metrics[0]!.changePercent).toBeLessThan(2);
    expect(body.metrics[0]!.reason).toMatch(/p = .* ≤ α = 0\.05.*below the 2% minimum change: counted as no change/);
    expect(body.markdown).toContain("- Significant but under 2%, so no change: `latency_ms` +1.");

    const strict = await check(slightlySlower.sha, ["--min-change", "1"]);
    expect(strict.code, strict.stderr).toBe(1);
    expect(strict.stdout).toContain("❌ Regression");
    expect(strict.stdout).toContain("at least 1% either way");
    expect(strict.stderr).toContain("changes under 1% ignored");
    // 0: significance alone decides.
    expect((await check(slightlySlower.sha, ["--min-change", "0"])).code).toBe(1);
    // A real +10% regression stays one at any threshold below it.
    expect((await check(regression.sha, ["--min-change", "9"])).code).toBe(1);
    expect((await check(regression.sha, ["--min-change", "15"])).code).toBe(0);
  });

  it("follows the metric's direction: on a higher-is-better metric −10% is a regression (exit 1) and +10% an improvement (exit 0)", async () => {
    const down = await check(throughputDown.sha, [], {}, throughput);
    expect(down.code, down.stderr).toBe(1);
    expect(down.stdout).toContain("❌ Regression");
    expect(down.stdout).toContain("- Worse: `latency_ms` −");
    const up = await check(throughputUp.sha, [], {}, throughput);
    expect(up.code, up.stderr).toBe(0);
    expect(up.stdout).toContain("✅ Improvement");
    expect(up.stdout).toContain("- Better: `latency_ms` +");
  });

  it("a short hash and --window 2 compare with the 2 commits before it", async () => {
    const result = await check(regression.sha.slice(0, 8), ["--window", "2", "--format", "json"]);
    expect(result.code, result.stderr).toBe(1);
    const body = JSON.parse(result.stdout) as {
      commit: string;
      window: { commits: { commit: string; runs: number }[] };
      metrics: { verdict: string; baselineMedian: number }[];
    };
    expect(body.commit).toBe(regression.sha);
    expect(body.window.commits).toEqual([
      { commit: history[5]!.sha, runs: 5 },
      { commit: history[4]!.sha, runs: 5 },
    ]);
    expect(body.metrics[0]?.verdict).toBe("worse");
  });

  it("--format github appends the same Markdown to $GITHUB_STEP_SUMMARY", async () => {
    const file = path.join(tmp, "summary.md");
    fs.writeFileSync(file, "earlier step\n");
    const result = await check(regression.sha, ["--format", "github"], { GITHUB_STEP_SUMMARY: file });
    expect(result.code, result.stderr).toBe(1);
    expect(fs.readFileSync(file, "utf8")).toBe(`earlier step\n${result.stdout}\n`);
    // Without the variable it still prints, and writes nothing.
    const plain = await check(improvement.sha, ["--format", "github"]);
    expect(plain.code).toBe(0);
    expect(plain.stdout).toContain("✅ Improvement");
  });

  it("the first commit on a branch has nothing to compare with: exit 0, saying so", async () => {
    const result = await check(history[0]!.sha);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain("Not enough data");
    expect(result.stdout).toContain("no earlier commit on `main` has runs");
  });

  it("cannot check: exit 2 with the reason (unknown commit, bad flags, bad key, missing flag)", async () => {
    const unknown = await check("deadbeef00");
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("404");
    expect(unknown.stderr).toContain("No runs of commit deadbeef00");

    const badWindow = await check(regression.sha, ["--window", "0"]);
    expect(badWindow.code).toBe(2);
    expect(badWindow.stderr).toContain("window: window must be at least 1 commit");

    for (const [value, message] of [
      ["-1", "minChange: minChange must be at least 0 (%)"],
      ["two", "minChange: minChange must be a number of per cent"],
      ["5000", "minChange: minChange must be at most 1000 (%)"],
    ]) {
      const badMinChange = await check(regression.sha, ["--min-change", value!]);
      expect(badMinChange.code, value).toBe(2);
      expect(badMinChange.stderr, value).toContain(message);
    }

    const notHex = await check("main");
    expect(notHex.code).toBe(2);
    expect(notHex.stderr).toContain("commit: a commit is 7 to 64 hex digits");

    const badKey = await check(regression.sha, [], { VERSUS_API_KEY: "vs_nope" });
    expect(badKey.code).toBe(2);
    expect(badKey.stderr).toContain("Unknown API key");

    const missing = await cli(["check", "--experiment", experiment, "--branch", "main"]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("--commit");

    const otherExperiment = await cli(["check", "--experiment", "nope", "--branch", "main", "--commit", regression.sha]);
    expect(otherExperiment.code).toBe(2);
    expect(otherExperiment.stderr).toContain('No experiment "nope"');
  });
});
