// The compare form's commit picker: each commit as one line (short SHA, date, message, branch,
// runs), and the search that narrows a long history to the commits whose SHA or message match.
import type { TRunSetOptions } from "~/server/schemas/cross-comparison";

export type CommitOption = TRunSetOptions["experiments"][number]["commits"][number];

const plural = (n: number, noun: string) => `${n} ${noun}${n === 1 ? "" : "s"}`;

/** "3f9a0c1b2d · 2026-06-01 · Raise gzip level · main (3 runs)"; the date is the commit's (UTC), else its last run's. */
export function commitLabel(commit: CommitOption): string {
  const date = (commit.committedAt ?? commit.lastRunAt).toISOString().slice(0, 10);
  const parts = [commit.gitCommit.slice(0, 10), date, commit.message, commit.gitBranch].filter(Boolean);
  return `${parts.join(" · ")} (${plural(commit.runs, "run")})`;
}

/** Commits whose SHA starts with, or whose message or branch contains, every word of the search (any case). */
export function matchingCommits(commits: readonly CommitOption[], search: string): CommitOption[] {
  const words = search.trim().toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return [...commits];
  return commits.filter((commit) => {
    const sha = commit.gitCommit.toLowerCase();
    const text = `${commit.message ?? ""} ${commit.gitBranch ?? ""}`.toLowerCase();
    return words.every((word) => sha.startsWith(word) || text.includes(word));
  });
}
