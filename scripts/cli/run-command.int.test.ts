// `versus run -- <command>` as CI runs it: a child process running a real command (here `cat` or
// `cp` of each tool's fixture output, as the tool itself would print or write it), detecting the
// tool and uploading over real HTTP to a Node http server in this test that hands the request to
// the exported route handler of POST /api/v1/imports, on the integration database.
import crypto from "node:crypto";
import fs from "node:fs";
import type http from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "~/test/cli-process";
import { startRouteServer, type RouteServer } from "~/test/route-server";
import { fetchRequestOf, sendResponse } from "../lib/fetch-bridge";
import { FIXTURES_DIR, readableFixtures } from "~/server/importers/fixture-files";

const { POST: postImports } = await import("~/app/api/v1/imports/route");
const { db } = await import("~/server/db/client");
const { createApiKey } = await import("~/server/projects/api-keys");
const { createProject } = await import("~/server/projects/projects");

let server: RouteServer;
let baseUrl: string;
let apiKey: string;
let projectId: string;
let tmp: string;

async function handle(req: http.IncomingMessage, res: http.ServerResponse) {
  const url = new URL(req.url ?? "/", baseUrl);
  const response =
    req.method === "POST" && url.pathname === "/api/v1/imports"
      ? await postImports(fetchRequestOf(req, url))
      : Response.json({ error: { code: "NOT_FOUND", message: `no route ${req.method} ${url.pathname}` } }, { status: 404 });
  await sendResponse(res, response);
}

const run = (args: string[]) => runCli(["run", ...args], { VERSUS_URL: baseUrl, VERSUS_API_KEY: apiKey, VERSUS_RETRY_SECONDS: "0" });
const runsOf = (slug: string) => db.run.count({ where: { experiment: { slug, projectId } } });

/** One fixture per format that its own importer reads (Criterion's estimates.json alone is not one). */
const onePerFormat = [...new Map(readableFixtures().map((fixture) => [fixture.format, fixture] as const)).values()];

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "versus-run-command-"));
  const slug = `run-command-${crypto.randomBytes(4).toString("hex")}`;
  projectId = (await createProject(db, { name: slug, slug, description: "" })).id;
  apiKey = (await createApiKey(db, slug, "ci")).secret;
  server = await startRouteServer(handle);
  baseUrl = server.url;
});

afterAll(async () => {
  await server?.close();
  await db.$disconnect();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe("versus run -- <command>", () => {
  it("has one fixture of each of the ten formats", () => {
    expect(onePerFormat.map((fixture) => fixture.format).sort()).toHaveLength(10);
  });

  it.each(onePerFormat.map((fixture) => [fixture.format, fixture.relative] as const))(
    "detects %s output (%s) printed by the command, and uploads it with the commit",
    async (format, relative) => {
      const slug = `detect-${format}`;
      const result = await run([
        "--experiment",
        slug,
        "--create",
        "--commit",
        "abcdef1234567",
        "--branch",
        "main",
        "--",
        "cat",
        path.join(FIXTURES_DIR, relative),
      ]);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toContain(`versus run: the output is ${format} (`);
      expect(result.stderr).toMatch(/stored: \d+ run\(s\)/);
      expect(result.stdout.trim()).toMatch(new RegExp(`/e/${slug}$`));
      const runs = await db.run.findMany({ where: { experiment: { slug, projectId } }, select: { gitCommit: true, gitBranch: true } });
      expect(runs.length).toBeGreaterThan(0);
      for (const stored of runs) expect(stored).toEqual({ gitCommit: "abcdef1234567", gitBranch: "main" });
    },
  );

  it("reads the file the command writes with --file, and runs it --repeat times, one upload each", async () => {
    const out = path.join(tmp, "result.json");
    const fixture = path.join(FIXTURES_DIR, "hyperfine/two-commands.json");
    const once = await run(["--experiment", "hyperfine-file", "--create", "--file", out, "--", "cp", fixture, out]);
    expect(once.code, once.stderr).toBe(0);
    const perUpload = await runsOf("hyperfine-file");
    expect(perUpload).toBeGreaterThan(0);

    // The same output each round: each round still ran the benchmark, so each is its own upload.
    const gobench = path.join(FIXTURES_DIR, "gobench/go-test-bench.txt");
    const repeated = await run(["--experiment", "gobench-repeat", "--create", "--repeat", "3", "--format", "gobench", "--", `cat ${gobench}`]);
    expect(repeated.code, repeated.stderr).toBe(0);
    expect(repeated.stderr).not.toContain("the output is");
    expect(repeated.stderr.match(/^stored: /gm)).toHaveLength(3);
  });

  it("exits 2 and uploads nothing when the command fails, the output is no tool's, or a batch's flag is given", async () => {
    const failed = await run(["--experiment", "never", "--create", "--", "sh", "-c", "echo partial; exit 3"]);
    expect(failed.code).toBe(2);
    expect(failed.stderr).toContain("the command exited with 3; nothing was uploaded");

    const unknown = await run(["--experiment", "never", "--create", "--", "echo", "all tests passed"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("could not tell which tool wrote the output");
    expect(unknown.stderr).toContain("name the tool with --format");

    const mixed = await run(["--experiment", "never", "--wait", "--runs", "3", "--", "true"]);
    expect(mixed.code).toBe(2);
    expect(mixed.stderr).toContain("--runs, --wait start a batch on the agents, not with -- <command>");

    expect(await db.experiment.count({ where: { slug: "never", projectId } })).toBe(0);
  });
});
