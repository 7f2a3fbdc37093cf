// The git commit a run measured, for the metric's history (docs/agent-protocol.md, "The commit
// a run measured"). An agent does not know what it benchmarks, so it is told:
// - VERSUS_GIT_COMMIT (with VERSUS_GIT_BRANCH, VERSUS_GIT_COMMIT_MESSAGE, VERSUS_GIT_COMMIT_TIME
//   optional) names the commit outright, for every run;
// - otherwise VERSUS_GIT_DIR names a git checkout whose HEAD is read before each run (a CI job
//   that checks out one commit after another keeps one agent): hash, commit time, subject line
//   and branch (none on a detached HEAD; VERSUS_GIT_BRANCH then gives it).
// Checked at start, so a typo stops the agent (exit 78) instead of every run going without it.
import { execFileSync } from "node:child_process";
import { ConfigError } from "./config-error";

/** The run's commit fields, as POST /api/v1/results takes them. */
export interface GitCommit {
  gitCommit?: string;
  gitBranch?: string;
  gitCommitMessage?: string;
  gitCommitTime?: string;
}

export type GitSource = { kind: "none" } | { kind: "fixed"; commit: GitCommit } | { kind: "checkout"; dir: string; branch?: string };

/** Runs git with `args` in `dir`; its standard output. Throws when git fails. */
export type GitRunner = (dir: string, args: string[]) => string;

// The server's limits (server/schemas/results.ts).
const MAX_COMMIT = 64;
const MAX_BRANCH = 200;
const MAX_MESSAGE = 500;
// ISO 8601 with an offset, as the server requires and `git log --format=%cI` writes.
const ISO_WITH_OFFSET = /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:\d\d)$/;

export const runGit: GitRunner = (dir, args) =>
  execFileSync("git", ["-C", dir, ...args], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], timeout: 10_000 });

const present = (value: string | undefined) => (value?.trim() ? value.trim() : undefined);

/** The source the environment describes; a ConfigError naming the variable when it is unusable. */
export function readGitSource(env: Record<string, string | undefined>, git: GitRunner = runGit): GitSource {
  const commit = present(env.VERSUS_GIT_COMMIT);
  const branch = present(env.VERSUS_GIT_BRANCH);
  const message = present(env.VERSUS_GIT_COMMIT_MESSAGE);
  const time = present(env.VERSUS_GIT_COMMIT_TIME);
  const dir = present(env.VERSUS_GIT_DIR);
  if (branch && branch.length > MAX_BRANCH) throw new ConfigError(`VERSUS_GIT_BRANCH must be at most ${MAX_BRANCH} characters`);
  if (commit) {
    if (commit.length > MAX_COMMIT) throw new ConfigError(`VERSUS_GIT_COMMIT must be at most ${MAX_COMMIT} characters (a commit hash)`);
    if (time && !validTime(time))
      throw new ConfigError(`VERSUS_GIT_COMMIT_TIME must be ISO 8601 with an offset, e.g. 2026-11-24T15:00:00+01:00 (git log -1 --format=%cI), not "${time}"`);
    return { kind: "fixed", commit: { gitCommit: commit, gitBranch: branch, gitCommitMessage: message && cutMessage(message), gitCommitTime: time } };
  }
  if (message || time)
    throw new ConfigError("VERSUS_GIT_COMMIT_MESSAGE and VERSUS_GIT_COMMIT_TIME describe VERSUS_GIT_COMMIT: set it too (or VERSUS_GIT_DIR instead)");
  if (dir) {
    const source: GitSource = { kind: "checkout", dir, branch };
    try {
      readCheckout(source, git);
    } catch (error) {
      throw new ConfigError(`VERSUS_GIT_DIR=${dir}: cannot read its HEAD commit with git: ${error instanceof Error ? error.message.trim() : String(error)}`);
    }
    return source;
  }
  if (branch) throw new ConfigError("VERSUS_GIT_BRANCH names the branch of VERSUS_GIT_COMMIT or of VERSUS_GIT_DIR's HEAD: set one of them too");
  return { kind: "none" };
}

/** The commit of the run about to start. A checkout that cannot be read any more gives none and the reason. */
export function captureGitCommit(source: GitSource, git: GitRunner = runGit): { commit: GitCommit; problem?: string } {
  if (source.kind === "none") return { commit: {} };
  if (source.kind === "fixed") return { commit: source.commit };
  try {
    return { commit: readCheckout(source, git) };
  } catch (error) {
    return {
      commit: {},
      problem: `VERSUS_GIT_DIR=${source.dir}: cannot read its HEAD commit, the run goes without one: ${error instanceof Error ? error.message.trim() : String(error)}`,
    };
  }
}

function readCheckout(source: { dir: string; branch?: string }, git: GitRunner): GitCommit {
  // Hash, committer time (strict ISO 8601), subject: one per line; the subject may be empty.
  const [hash = "", time = "", ...subject] = git(source.dir, ["log", "-1", "--format=%H%n%cI%n%s"]).split("\n");
  if (!/^[0-9a-f]{7,64}$/.test(hash.trim()) || !validTime(time.trim())) throw new Error(`unexpected output of git log: ${JSON.stringify(`${hash}\n${time}`)}`);
  const message = subject.join(" ").trim();
  const head = source.branch ? "" : git(source.dir, ["rev-parse", "--abbrev-ref", "HEAD"]).trim();
  const branch = source.branch ?? (head && head !== "HEAD" ? head.slice(0, MAX_BRANCH) : undefined);
  return { gitCommit: hash.trim(), gitBranch: branch, gitCommitMessage: message ? cutMessage(message) : undefined, gitCommitTime: time.trim() };
}

function validTime(value: string): boolean {
  return ISO_WITH_OFFSET.test(value) && !Number.isNaN(Date.parse(value));
}

/** The server keeps 500 characters of a message; a longer subject is cut with an ellipsis rather than refused. */
function cutMessage(message: string): string {
  return message.length <= MAX_MESSAGE ? message : `${message.slice(0, MAX_MESSAGE - 1)}…`;
}
