// The commit a run measured: named by the environment, or read from a real git checkout's HEAD
// before each run (so a checkout that moves between jobs is followed); unusable settings stop the
// agent at start, naming the variable.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ConfigError } from "./config-error";
import { captureGitCommit, readGitSource, type GitSource } from "./git-commit";

let repo: string;

function git(...args: string[]): string {
  return execFileSync("git", ["-C", repo, ...args], {
    encoding: "utf8",
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: "t",
      GIT_AUTHOR_EMAIL: "t@example.com",
      GIT_COMMITTER_NAME: "t",
      GIT_COMMITTER_EMAIL: "t@example.com",
      GIT_COMMITTER_DATE: "2026-03-04T05:06:07+02:00",
      GIT_AUTHOR_DATE: "2026-03-04T05:06:07+02:00",
    },
  }).trim();
}

function commit(subject: string, body = "") {
  fs.writeFileSync(path.join(repo, "file.txt"), `${subject}\n${Math.random()}`);
  git("add", "file.txt");
  git("commit", "-q", "-m", subject, ...(body ? ["-m", body] : []));
  return git("rev-parse", "HEAD");
}

beforeEach(() => {
  repo = fs.mkdtempSync(path.join(os.tmpdir(), "versus-git-"));
  git("init", "-q", "-b", "main");
});

afterEach(() => fs.rmSync(repo, { recursive: true, force: true }));

describe("readGitSource and captureGitCommit", () => {
  it("reads the checkout's HEAD before each run: hash, commit time, subject line (not the body), branch", () => {
    const first = commit("Raise gzip level", "A body that is not the subject.");
    const source = readGitSource({ VERSUS_GIT_DIR: repo });
    expect(captureGitCommit(source)).toEqual({
      commit: { gitCommit: first, gitBranch: "main", gitCommitMessage: "Raise gzip level", gitCommitTime: "2026-03-04T05:06:07+02:00" },
    });
    // The checkout moves on between jobs: the next run measures the new HEAD.
    const second = commit("Reuse the deflate state");
    expect(captureGitCommit(source).commit).toMatchObject({ gitCommit: second, gitCommitMessage: "Reuse the deflate state" });
  });

  it("gives no branch on a detached HEAD, unless VERSUS_GIT_BRANCH names it", () => {
    const first = commit("One");
    commit("Two");
    git("checkout", "-q", first);
    expect(captureGitCommit(readGitSource({ VERSUS_GIT_DIR: repo })).commit).toEqual({
      gitCommit: first,
      gitBranch: undefined,
      gitCommitMessage: "One",
      gitCommitTime: "2026-03-04T05:06:07+02:00",
    });
    expect(captureGitCommit(readGitSource({ VERSUS_GIT_DIR: repo, VERSUS_GIT_BRANCH: "release" })).commit.gitBranch).toBe("release");
  });

  it("cuts a subject longer than the server keeps (500 characters)", () => {
    commit("x".repeat(600));
    const message = captureGitCommit(readGitSource({ VERSUS_GIT_DIR: repo })).commit.gitCommitMessage!;
    expect(message).toHaveLength(500);
    expect(message.endsWith("…")).toBe(true);
  });

  it("takes the commit from the environment when VERSUS_GIT_COMMIT is set (the checkout is then not read)", () => {
    const env = {
      VERSUS_GIT_COMMIT: "abc1234",
      VERSUS_GIT_BRANCH: "main",
      VERSUS_GIT_COMMIT_MESSAGE: "Fix it",
      VERSUS_GIT_COMMIT_TIME: "2026-11-24T15:00:00Z",
      VERSUS_GIT_DIR: "/nowhere",
    };
    expect(captureGitCommit(readGitSource(env)).commit).toEqual({
      gitCommit: "abc1234",
      gitBranch: "main",
      gitCommitMessage: "Fix it",
      gitCommitTime: "2026-11-24T15:00:00Z",
    });
    expect(readGitSource({})).toEqual({ kind: "none" });
    expect(captureGitCommit({ kind: "none" })).toEqual({ commit: {} });
  });

  it("refuses unusable settings at start, naming the variable", () => {
    expect(() => readGitSource({ VERSUS_GIT_DIR: path.join(repo, "missing") })).toThrow(ConfigError);
    expect(() => readGitSource({ VERSUS_GIT_DIR: repo })).toThrow(/VERSUS_GIT_DIR=.*cannot read its HEAD commit with git/); // no commit yet
    expect(() => readGitSource({ VERSUS_GIT_COMMIT: "abc1234", VERSUS_GIT_COMMIT_TIME: "yesterday" })).toThrow(
      "VERSUS_GIT_COMMIT_TIME must be ISO 8601 with an offset",
    );
    expect(() => readGitSource({ VERSUS_GIT_COMMIT: "abc1234", VERSUS_GIT_COMMIT_TIME: "2026-11-24T15:00:00" })).toThrow(
      "VERSUS_GIT_COMMIT_TIME must be ISO 8601 with an offset",
    );
    expect(() => readGitSource({ VERSUS_GIT_COMMIT: "a".repeat(65) })).toThrow("VERSUS_GIT_COMMIT must be at most 64 characters");
    expect(() => readGitSource({ VERSUS_GIT_COMMIT_MESSAGE: "Fix" })).toThrow("set it too");
    expect(() => readGitSource({ VERSUS_GIT_BRANCH: "main" })).toThrow("VERSUS_GIT_BRANCH names the branch");
  });

  it("a checkout that cannot be read any more: the run goes without a commit, and says why", () => {
    commit("One");
    const source: GitSource = readGitSource({ VERSUS_GIT_DIR: repo });
    fs.rmSync(path.join(repo, ".git"), { recursive: true, force: true });
    const { commit: none, problem } = captureGitCommit(source);
    expect(none).toEqual({});
    expect(problem).toMatch(/^VERSUS_GIT_DIR=.*: cannot read its HEAD commit, the run goes without one/);
  });
});
