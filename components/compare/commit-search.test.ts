import { describe, expect, it } from "vitest";
import { commitLabel, matchingCommits, type CommitOption } from "./commit-search";

const commit = (gitCommit: string, message: string | null, committedAt: string | null, gitBranch: string | null = "main"): CommitOption => ({
  gitCommit,
  gitBranch,
  message,
  committedAt: committedAt ? new Date(committedAt) : null,
  runs: 3,
  lastRunAt: new Date("2026-07-01T12:00:00Z"),
});

const commits = [
  commit("3f9a0c1b2d4e5f60718293a4b5c6d7e8f9012345", "Raise gzip level from 6 to 9", "2026-06-01T09:00:00Z"),
  commit("a0b1c2d3e4f5061728394a5b6c7d8e9f00112233", "Reuse the deflate state between payloads", "2026-06-20T09:00:00Z", "release"),
  commit("ffee0011223344556677889900aabbccddeeff00", null, null, null),
];

describe("commitLabel", () => {
  it("shows the short SHA, the commit's date, its message, branch and runs", () => {
    expect(commitLabel(commits[0]!)).toBe("3f9a0c1b2d · 2026-06-01 · Raise gzip level from 6 to 9 · main (3 runs)");
  });
  it("falls back to the last run's date without a commit time, and leaves out what is unknown", () => {
    expect(commitLabel(commits[2]!)).toBe("ffee001122 · 2026-07-01 (3 runs)");
  });
});

describe("matchingCommits", () => {
  it("finds a commit by the start of its SHA, in any case", () => {
    expect(matchingCommits(commits, "A0B1").map((c) => c.gitCommit)).toEqual([commits[1]!.gitCommit]);
  });
  it("finds commits by words of their message or branch, all words required", () => {
    expect(matchingCommits(commits, "deflate").map((c) => c.message)).toEqual(["Reuse the deflate state between payloads"]);
    expect(matchingCommits(commits, "gzip main").map((c) => c.message)).toEqual(["Raise gzip level from 6 to 9"]);
    expect(matchingCommits(commits, "gzip release")).toEqual([]);
  });
  it("keeps every commit for an empty search", () => {
    expect(matchingCommits(commits, "  ")).toHaveLength(3);
  });
});
