// The `versus` CLI as a user runs it: a child process (`node scripts/cli/bin.mjs …`) talking
// over real HTTP to a Node http server in this test that hands each request to the exported
// Next.js route handlers, on the integration database. Checks exit codes, stdout (the
// experiment URL, or a new key) and stderr (what was stored, progress, the server's message).
import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { runCli } from "~/test/cli-process";
import { fetchRequestOf, sendResponse } from "../lib/fetch-bridge";

// The server side reads VERSUS_MAX_BODY_BYTES from the environment: a small limit (8 MB) lets
// one test see a real 413 over HTTP; the progress test stays under it.
const LIMIT_BYTES = 8 * 1024 * 1024;
process.env.VERSUS_MAX_BODY_BYTES = String(LIMIT_BYTES);
const { POST: postResults } = await import("~/app/api/v1/results/route");
const { POST: postImports } = await import("~/app/api/v1/imports/route");
const { db } = await import("~/server/db/client");
const { createApiKey, revokeApiKey } = await import("~/server/projects/api-keys");
const { createProject } = await import("~/server/projects/projects");

const repoRoot = path.resolve(import.meta.dirname, "../..");
const suffix = () => crypto.randomBytes(4).toString("hex");

let server: http.Server;
let baseUrl: string;
let projectSlug: string;
let apiKey: string;
let tmp: string;
/** The next this many requests are answered 503 with Retry-After, as while the database restarts. */
let unavailableAnswers = 0;

/** Adapts a Node request to a Fetch Request for the route handlers, and writes the Response back. */
async function handle(req: http.IncomingMessage, res: http.ServerResponse) {
  const url = new URL(req.url ?? "/", baseUrl);
  if (unavailableAnswers > 0) {
    unavailableAnswers--;
    for await (const _chunk of req); // read the upload, as the server does before it finds the database away
    res
      .writeHead(503, { "content-type": "application/json", "retry-after": "1" })
      .end(
        JSON.stringify({ error: { code: "UNAVAILABLE", message: "The database is unavailable right now (restarting or unreachable); retry in 1 seconds" } }),
      );
    return;
  }
  const route = url.pathname === "/api/v1/results" ? postResults : url.pathname === "/api/v1/imports" ? postImports : undefined;
  if (req.method !== "POST" || !route) {
    res
      .writeHead(404, { "content-type": "application/json" })
      .end(JSON.stringify({ error: { code: "NOT_FOUND", message: `no route ${req.method} ${url.pathname}` } }));
    return;
  }
  await sendResponse(res, await route(fetchRequestOf(req, url)));
}

/** Runs the CLI against this test's server and key. */
const cli = (args: string[], env: Record<string, string | undefined> = {}) => runCli(args, { VERSUS_URL: baseUrl, VERSUS_API_KEY: apiKey, ...env });

function writeJson(name: string, value: unknown): string {
  const file = path.join(tmp, name);
  fs.writeFileSync(file, JSON.stringify(value));
  return file;
}

const upload = (experiment: string, samples: number[] = [12.5, 13.1, 11.9, 12.2]) => ({
  experiment,
  create: true,
  runs: [{ variant: "plain", gitCommit: "abc1234", metrics: [{ key: "latency_ms", unit: "ms", direction: "lower_is_better", samples }] }],
});

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "versus-cli-"));
  projectSlug = `cli-${suffix()}`;
  await createProject(db, { name: projectSlug, slug: projectSlug, description: "" });
  apiKey = (await createApiKey(db, projectSlug, "cli test")).secret;
  server = http.createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      res.writeHead(500).end(String(error));
    });
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

describe("versus upload", () => {
  it("uploads a results file: exit 0, the experiment URL on stdout, what was stored on stderr", async () => {
    const experiment = `upload-${suffix()}`;
    const file = writeJson(`${experiment}.json`, upload(experiment));
    const result = await cli(["upload", file]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe(`${baseUrl}/p/${projectSlug}/e/${experiment}\n`);
    expect(result.stderr).toContain('stored: 1 run(s) of "plain"');
    expect(result.stderr).toContain("created the experiment");
    expect(result.stderr).toContain("created metrics: latency_ms");

    const runs = await db.run.findMany({ where: { experiment: { slug: experiment, project: { slug: projectSlug } } }, include: { results: true } });
    expect(runs).toHaveLength(1);
    expect(runs[0]?.gitCommit).toBe("abc1234");
    expect(runs[0]?.results[0]?.mean).toBeCloseTo((12.5 + 13.1 + 11.9 + 12.2) / 4, 12);
  });

  it("a second identical upload is recognised (idempotency key from the file) and stores nothing", async () => {
    const experiment = `again-${suffix()}`;
    const file = writeJson(`${experiment}.json`, upload(experiment));
    const first = await cli(["upload", file]);
    expect(first.code, first.stderr).toBe(0);
    const second = await cli(["upload", file]);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).toContain('already stored earlier: 1 run(s) of "plain"');
    expect(second.stdout).toBe(first.stdout);
    expect(await db.run.count({ where: { experiment: { slug: experiment, project: { slug: projectSlug } } } })).toBe(1);

    // A changed file is a new upload.
    fs.writeFileSync(file, JSON.stringify(upload(experiment, [20, 21])));
    const third = await cli(["upload", file]);
    expect(third.code, third.stderr).toBe(0);
    expect(third.stderr).toContain("stored: 1 run(s)");
    expect(await db.run.count({ where: { experiment: { slug: experiment, project: { slug: projectSlug } } } })).toBe(2);
  });

  it("a bad key: exit 1 and the server's message on stderr", async () => {
    const file = writeJson(`bad-key-${suffix()}.json`, upload(`bad-key-${suffix()}`));
    const result = await cli(["upload", file], { VERSUS_API_KEY: "vs_not-a-real-key" });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain("401");
    expect(result.stderr).toContain("Unknown API key");
  });

  it("a revoked key: exit 1 saying it was revoked", async () => {
    const revoked = await createApiKey(db, projectSlug, "revoked in test");
    await revokeApiKey(db, projectSlug, revoked.id);
    const file = writeJson(`revoked-${suffix()}.json`, upload(`revoked-${suffix()}`));
    const result = await cli(["upload", file], { VERSUS_API_KEY: revoked.secret });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('API key "revoked in test" was revoked');
  });

  it("invalid content: exit 1 with the server's message and the fields", async () => {
    const file = writeJson(`invalid-${suffix()}.json`, { experiment: "x", runs: [{ variant: "a", metrics: [{ key: "m", samples: [] }] }] });
    const result = await cli(["upload", file]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("400");
    expect(result.stderr).toContain("runs.0.metrics.0.samples: samples cannot be empty");
  });

  it("missing VERSUS_URL: exit 1 with a clear message", async () => {
    const file = writeJson(`no-url-${suffix()}.json`, upload("no-url"));
    const result = await cli(["upload", file], { VERSUS_URL: undefined });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("VERSUS_URL is not set");
  });

  it("a server that is not there: exit 1 saying it cannot be reached", async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise((resolve) => closed.close(resolve));
    const file = writeJson(`unreachable-${suffix()}.json`, upload("unreachable"));
    const result = await cli(["upload", file], { VERSUS_URL: url, VERSUS_RETRY_SECONDS: "0" });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`cannot reach ${url} (ECONNREFUSED)`);
    expect(result.stderr).not.toContain("retrying");
  });

  it("a 503 with Retry-After (the database restarting): waits as asked, retries the same upload, stores it once", async () => {
    const experiment = `retried-${suffix()}`;
    const file = writeJson(`${experiment}.json`, upload(experiment));
    unavailableAnswers = 2;
    const result = await cli(["upload", file]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr.match(/503 Service Unavailable: The database is unavailable.*; retrying in \d+ s\n/g)).toHaveLength(2);
    expect(result.stderr).toContain('stored: 1 run(s) of "plain"');
    expect(await db.run.count({ where: { experiment: { slug: experiment, project: { slug: projectSlug } } } })).toBe(1);
    expect(unavailableAnswers).toBe(0);
  });

  it("503s for longer than VERSUS_RETRY_SECONDS: gives up with the server's message, stores nothing", async () => {
    const experiment = `gave-up-${suffix()}`;
    const file = writeJson(`${experiment}.json`, upload(experiment));
    unavailableAnswers = 1000;
    try {
      const result = await cli(["upload", file], { VERSUS_RETRY_SECONDS: "2" });
      expect(result.code).toBe(1);
      // Each wait is at least the second Retry-After asks, so two seconds hold at most two.
      expect((result.stderr.match(/retrying in/g) ?? []).length).toBeLessThanOrEqual(2);
      expect(result.stderr).toMatch(/(^|\n)versus: 503 Service Unavailable: The database is unavailable[^\n]*seconds\n$/);
    } finally {
      unavailableAnswers = 0;
    }
    expect(await db.run.count({ where: { experiment: { slug: experiment } } })).toBe(0);
  });

  it("a VERSUS_RETRY_SECONDS that is not a number of seconds: exit 1 naming it", async () => {
    const result = await cli(["upload", writeJson(`bad-retry-${suffix()}.json`, upload("bad-retry"))], { VERSUS_RETRY_SECONDS: "soon" });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("VERSUS_RETRY_SECONDS must be a number of seconds (0 never retries)");
  });

  it("missing VERSUS_API_KEY: exit 1 saying how to get one", async () => {
    const file = writeJson(`no-key-${suffix()}.json`, upload("no-key"));
    const result = await cli(["upload", file], { VERSUS_API_KEY: undefined });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("VERSUS_API_KEY is not set");
  });

  it("a file that does not exist: exit 1 naming it", async () => {
    const missing = path.join(tmp, "does-not-exist.json");
    const result = await cli(["upload", missing]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`no such file: ${missing}`);
  });

  it("a file over 1 MB prints a progress line per 10 % step (stderr is not a terminal)", async () => {
    const experiment = `big-${suffix()}`;
    // ~5 MB of JSON: 5 one-megabyte chunks, so 20 %, 40 %, … 100 %.
    const random = (() => {
      let seed = 1;
      return () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    })();
    const samples = Array.from({ length: 400_000 }, () => Math.round((5 + random() * 20) * 1e9) / 1e9);
    const file = writeJson(`${experiment}.json`, upload(experiment, samples));
    const size = fs.statSync(file).size;
    expect(size).toBeGreaterThan(4 * 1024 * 1024);
    expect(size).toBeLessThan(LIMIT_BYTES);

    const result = await cli(["upload", file]);
    expect(result.code, result.stderr).toBe(0);
    const progress = result.stderr.split("\n").filter((line) => line.startsWith("uploading: "));
    expect(progress.length).toBeGreaterThanOrEqual(4);
    expect(progress.length).toBeLessThanOrEqual(11);
    expect(progress.at(-1)).toMatch(/^uploading: 100% \((\d+\.\d+) of \1 MiB\)$/);
    const percents = progress.map((line) => Number(/(\d+)%/.exec(line)?.[1]));
    expect(percents).toEqual([...percents].sort((a, b) => a - b));
    expect(new Set(percents.map((p) => Math.floor(p / 10))).size).toBe(percents.length);
    expect(result.stderr).toContain("stored: 1 run(s)");
    expect(result.stdout).toBe(`${baseUrl}/p/${projectSlug}/e/${experiment}\n`);

    const stored = await db.runMetricResult.findFirstOrThrow({ where: { run: { experiment: { slug: experiment, project: { slug: projectSlug } } } } });
    expect(Number(stored.n)).toBe(400_000);
  });

  it("a small file prints no progress", async () => {
    const file = writeJson(`small-${suffix()}.json`, upload(`small-${suffix()}`));
    const result = await cli(["upload", file]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).not.toContain("uploading:");
  });

  it("a file over the server's limit: exit 1 with the server's 413 message", async () => {
    const file = path.join(tmp, `huge-${suffix()}.json`);
    fs.writeFileSync(file, `{"experiment": "huge", "runs": [], "pad": "${"x".repeat(LIMIT_BYTES + 1024)}"}`);
    const before = await db.run.count();
    const result = await cli(["upload", file]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("413");
    expect(result.stderr).toContain("larger than the limit of 8 MB");
    expect(await db.run.count()).toBe(before);
  });
});

describe("versus import", () => {
  const wrkFixture = path.join(repoRoot, "server/importers/fixtures/wrk/wrk-latency.txt");

  it("imports a tool's output into a new experiment", async () => {
    const experiment = `import-${suffix()}`;
    const result = await cli(["import", wrkFixture, "--format", "wrk", "--experiment", experiment, "--variant", "nginx", "--create"]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe(`${baseUrl}/p/${projectSlug}/e/${experiment}\n`);
    expect(result.stderr).toContain('stored: 1 run(s) of "nginx"');
    expect(result.stderr).toContain("created the experiment");

    const runs = await db.run.findMany({
      where: { experiment: { slug: experiment, project: { slug: projectSlug } } },
      include: { results: { include: { metric: true } } },
    });
    expect(runs).toHaveLength(1);
    expect(runs[0]?.source).toBe("import");
    const rps = runs[0]?.results.find((r) => r.metric.key === "requests_per_sec");
    expect(rps?.mean).toBe(10659.9); // "Requests/sec:  10659.90" in the fixture
  });

  it("the same import again is recognised; the same file into another experiment is not", async () => {
    const experiment = `reimport-${suffix()}`;
    const args = ["import", wrkFixture, "--format", "wrk", "--experiment", experiment, "--variant", "nginx", "--create"];
    expect((await cli(args)).code).toBe(0);
    const again = await cli(args);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain("already stored earlier");
    const elsewhere = await cli(["import", wrkFixture, "--format", "wrk", "--experiment", `${experiment}-2`, "--variant", "nginx", "--create"]);
    expect(elsewhere.code, elsewhere.stderr).toBe(0);
    expect(elsewhere.stderr).toContain("stored: 1 run(s)");
  });

  it("another tool's file: exit 1 with the server's message naming the format", async () => {
    const hyperfine = path.join(repoRoot, "server/importers/fixtures/hyperfine/two-commands.json");
    const result = await cli(["import", hyperfine, "--format", "wrk", "--experiment", `wrong-${suffix()}`, "--create"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("422");
    expect(result.stderr).toContain("Not valid wrk output");
  });

  it("an unknown --format is refused by the CLI itself", async () => {
    const result = await cli(["import", wrkFixture, "--format", "ab", "--experiment", "x"]);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain("ab");
    expect(result.stderr).toMatch(/Allowed choices are jmh, gobench/);
  });
});

describe("versus admin create-key", () => {
  it("prints a new key on stdout (creating the project) that then authenticates an upload", async () => {
    const project = `admin-${suffix()}`;
    const created = await cli(["admin", "create-key", "--project", project, "--name", "ci"], {
      DATABASE_URL: inject("databaseUrl"),
      VERSUS_URL: undefined,
      VERSUS_API_KEY: undefined,
    });
    expect(created.code, created.stderr).toBe(0);
    expect(created.stderr).toContain(`created project "${project}"`);
    expect(created.stderr).toContain(`API key "ci" for project "${project}"`);
    const key = created.stdout.trim();
    expect(key).toMatch(/^vs_[A-Za-z0-9_-]{43}$/);
    expect(created.stdout).toBe(`${key}\n`);

    const experiment = `admin-upload-${suffix()}`;
    const file = writeJson(`${experiment}.json`, upload(experiment));
    const uploaded = await cli(["upload", file], { VERSUS_API_KEY: key });
    expect(uploaded.code, uploaded.stderr).toBe(0);
    expect(uploaded.stdout).toBe(`${baseUrl}/p/${project}/e/${experiment}\n`);

    // A second key for the now existing project: no "created project" line.
    const second = await cli(["admin", "create-key", "--project", project], { DATABASE_URL: inject("databaseUrl") });
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).not.toContain("created project");
    expect(second.stdout.trim()).not.toBe(key);
    expect(await db.apiKey.count({ where: { project: { slug: project } } })).toBe(2);
  });
});

describe("versus admin reset-password and setup-link", () => {
  it("reset-password prints a new password that signs in, and ends the old sessions", async () => {
    const { signedInUser, signIn } = await import("~/test/signed-in");
    const user = await signedInUser(db, "forgetful");
    const reset = await cli(["admin", "reset-password", "--email", user.email.toUpperCase()], { DATABASE_URL: inject("databaseUrl") });
    expect(reset.code, reset.stderr).toBe(0);
    expect(reset.stderr).toContain(`new password for ${user.email}`);
    const password = reset.stdout.trim();
    expect(password).toMatch(/^[A-Za-z0-9_-]{24}$/);
    await expect(user.caller.project.list()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    await expect(signIn(user.email, user.password)).rejects.toThrow();
    expect(await signIn(user.email, password)).toMatch(/session_token=/);

    const unknown = await cli(["admin", "reset-password", "--email", "nobody@example.test"], { DATABASE_URL: inject("databaseUrl") });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("No account with email nobody@example.test");
  });

  it("setup-link refuses once an account exists (there is no second first owner)", async () => {
    const refused = await cli(["admin", "setup-link"], { DATABASE_URL: inject("databaseUrl") });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("already has an account");
  });
});
