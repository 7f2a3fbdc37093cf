// The bundled history shows what it promises: 300 commits on main with three runs each, and
// E-Divisive (at its default significance, as the store runs it) finds exactly its two injected
// shifts of compress time, within ±2 commits, with the right sizes and signs — amid noise,
// drift and outlier runs that must not produce a false change point.
import { describe, expect, it } from "vitest";
import { median } from "../../stats/descriptive";
import { detectChangePoints } from "../../stats/change-points";
import { gzipHistory, HISTORY_COMMITS, HISTORY_SHIFTS, RUNS_PER_COMMIT } from "./gzip-history";

const upload = gzipHistory.results?.();
if (!upload) throw new Error("the history example has runs");

/** Per commit (in upload order = commit order), the median of its runs' mean `key`. */
function commitMedians(key: string): number[] {
  const byCommit = new Map<string, number[]>();
  for (const run of upload!.runs) {
    const values = byCommit.get(run.gitCommit as string) ?? [];
    values.push(run.metrics.find((m) => m.key === key)?.summary?.mean as number);
    byCommit.set(run.gitCommit as string, values);
  }
  return [...byCommit.values()].map(median);
}

describe("the example history (gzip over 300 commits)", () => {
  it("has 300 distinct commits on main, three runs each, with messages and increasing commit times", () => {
    expect(upload.runs).toHaveLength(HISTORY_COMMITS * RUNS_PER_COMMIT);
    const commits = [...new Set(upload.runs.map((r) => r.gitCommit))];
    expect(commits).toHaveLength(HISTORY_COMMITS);
    expect(commits.every((sha) => /^[0-9a-f]{40}$/.test(sha as string))).toBe(true);
    expect(upload.runs.every((r) => r.gitBranch === "main" && r.gitCommitMessage && r.tags.includes("example data"))).toBe(true);
    const times = commits.map((sha) => upload.runs.find((r) => r.gitCommit === sha)?.gitCommitTime as string);
    expect(times).toEqual([...times].sort());
    expect(upload.runs.find((r) => r.gitCommit === commits[120])?.gitCommitMessage).toBe(HISTORY_SHIFTS[0].message);
  });

  it("is the same every time (seeded)", () => {
    expect(gzipHistory.results?.()).toEqual(upload);
  });

  it("has exactly its two compress-time shifts, found within ±2 commits: +8% and −5%", () => {
    const found = detectChangePoints(commitMedians("compress_time")).changePoints;
    expect(found.map((c) => c.index)).toHaveLength(2);
    const [up, down] = found;
    expect(Math.abs((up?.index as number) - 120)).toBeLessThanOrEqual(2);
    expect(Math.abs((down?.index as number) - 220)).toBeLessThanOrEqual(2);
    expect(up?.changePercent).toBeGreaterThan(5);
    expect(up?.changePercent).toBeLessThan(11);
    expect(down?.changePercent).toBeGreaterThan(-8);
    expect(down?.changePercent).toBeLessThan(-2);
  });

  it("has one compressed-size shift, at the gzip level change", () => {
    const found = detectChangePoints(commitMedians("compressed_bytes")).changePoints;
    expect(found.map((c) => c.index)).toEqual([120]);
    expect(found[0]?.changePercent).toBeCloseTo(-1.5, 0);
  });
});
