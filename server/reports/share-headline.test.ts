// The one-line verdicts of a share link's description and preview image, from real comparisons
// made by the statistics engine.
import { describe, expect, it } from "vitest";
import type { TComparison } from "../schemas/comparison";
import { compareMetric } from "../stats/compare";
import { shareDescription, shareHeadlines } from "./share-headline";

type Metric = TComparison["metrics"][number];

function metric(key: string, direction: Metric["direction"], baseline: number[], candidate: number[]): Metric {
  const comparison = compareMetric({ key, unit: "ms", direction }, [
    { name: "old", isBaseline: true, replicates: baseline },
    { name: "new", isBaseline: false, replicates: candidate },
  ]);
  return { key, label: "", unit: "ms", direction, aggregation: "mean", comparison, reason: null };
}

function comparisonOf(metrics: Metric[]): TComparison {
  return {
    experiment: { slug: "e", title: "E", alpha: 0.05 },
    baseline: "old",
    variants: [
      { name: "old", isBaseline: true, runs: 5 },
      { name: "new", isBaseline: false, runs: 5 },
    ],
    metrics,
  };
}

const steady = [10, 10.2, 9.9, 10.1, 10.05];
const faster = [8, 8.1, 7.9, 8.05, 8.2];

describe("shareHeadlines", () => {
  it("leads with significant changes, worded by direction, then one line per metric without one", () => {
    const headlines = shareHeadlines(
      comparisonOf([
        metric("noise_ms", "lower_is_better", steady, [10.1, 9.95, 10.15, 10, 10.02]),
        metric("latency_ms", "lower_is_better", steady, faster),
        metric("throughput", "higher_is_better", steady, faster),
        metric("few_runs", "lower_is_better", [1, 2], [3, 4]),
        { key: "empty", label: "", unit: "ms", direction: "lower_is_better", aggregation: "mean", comparison: null, reason: "no runs" },
      ]),
    );
    expect(headlines).toEqual([
      { text: expect.stringMatching(/^new −\d+\.\d\d% latency_ms vs old \(better, p 0\.\d{3}\)$/), verdict: "better" },
      { text: expect.stringMatching(/^new −\d+\.\d\d% throughput vs old \(worse, p 0\.\d{3}\)$/), verdict: "worse" },
      { text: "noise_ms: no significant change vs old", verdict: "no_change" },
      { text: "few_runs: not enough data", verdict: "insufficient_data" },
      { text: "empty: no comparison yet", verdict: null },
    ]);
  });
});

describe("shareDescription", () => {
  it("joins the first three and counts the rest", () => {
    const lines = (...texts: string[]) => texts.map((text) => ({ text, verdict: null }));
    expect(shareDescription(lines("a", "b", "c", "d", "e"))).toBe("a; b; c; and 2 more");
    expect(shareDescription(lines("a"))).toBe("a");
    expect(shareDescription([])).toBe("A performance comparison shared from Versus.");
  });
});
