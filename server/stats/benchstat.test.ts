// compareMetric against benchstat on real `go test -bench` output of two variants
// (fixtures/benchstat/run.sh: 8 interleaved runs per variant, and 3 per variant).
import { describe, expect, it } from "vitest";
import { compareMetric } from "./compare";
import type { MannWhitneyMethod } from "./mann-whitney";
import { fixtureText } from "./fixtures/load";
import { parseBenchstat, parseGoBench } from "./fixtures/gobench";

function check(oldFile: string, newFile: string, benchstatFile: string) {
  const oldRuns = parseGoBench(fixtureText(`benchstat/${oldFile}`));
  const newRuns = parseGoBench(fixtureText(`benchstat/${newFile}`));
  const rows = parseBenchstat(fixtureText(`benchstat/${benchstatFile}`));
  return { oldRuns, newRuns, rows };
}

function compareRow(
  oldRuns: Map<string, Map<string, number[]>>,
  newRuns: Map<string, Map<string, number[]>>,
  name: string,
  unit: string,
  method: MannWhitneyMethod = "auto",
) {
  const before = oldRuns.get(name)?.get(unit);
  const after = newRuns.get(name)?.get(unit);
  if (!before || !after) throw new Error(`no ${name} ${unit} in the go test output`);
  return compareMetric(
    { key: unit, unit, direction: "lower_is_better" },
    [
      { name: "old", isBaseline: true, replicates: before },
      { name: "new", isBaseline: false, replicates: after },
    ],
    { mannWhitneyMethod: method },
  );
}

// p-values printed by benchstat that the default (scipy) rule does not reproduce; listed so the
// test output shows them.
const differing: string[] = [];

describe("benchstat, 8 runs per variant", () => {
  const { oldRuns, newRuns, rows } = check("old.txt", "new.txt", "benchstat.txt");

  it("parses every row benchstat printed", () => {
    expect(rows.length).toBe(9); // 3 benchmarks × sec/op, B/op, allocs/op
    expect(rows.some((r) => r.delta === "~")).toBe(true);
    expect(rows.some((r) => r.delta !== "~")).toBe(true);
  });

  it.each(rows.map((r) => [r.name, r.unit, r] as const))("%s %s: same verdict, % change, p and ± %%", (name, unit, row) => {
    const result = compareRow(oldRuns, newRuns, name, unit);
    const cmp = result.comparisons[0];
    if (!cmp) throw new Error("no comparison");
    // Verdict: benchstat's "~" ⇔ no_change; a printed percentage ⇔ better or worse.
    if (row.delta === "~") {
      expect(cmp.verdict).toBe("no_change");
    } else {
      expect(["better", "worse"]).toContain(cmp.verdict);
      expect(cmp.verdict).toBe(row.delta < 0 ? "better" : "worse");
      // benchstat prints %+.2f of (new/old − 1)·100 with old, new the medians.
      expect(cmp.change.percent?.toFixed(2)).toBe(row.delta.toFixed(2));
    }
    // benchstat prints p=%.3f. Where ties meet ≤ 25 runs per side benchstat uses the exact
    // distribution given the ties and scipy's rule (the default) the normal approximation; the
    // "benchstat" method reproduces benchstat's figure there too.
    const exactTies = compareRow(oldRuns, newRuns, name, unit, "benchstat").comparisons[0];
    expect(exactTies?.mannWhitney?.p.toFixed(3)).toBe(row.p.toFixed(3));
    expect(exactTies?.verdict).toBe(cmp.verdict);
    const printed = cmp.mannWhitney?.p.toFixed(3);
    if (!(cmp.mannWhitney?.ties && cmp.mannWhitney.method === "asymptotic")) expect(printed).toBe(row.p.toFixed(3));
    else if (printed !== row.p.toFixed(3)) differing.push(`8 runs, ${name} ${unit}: p=${printed} (scipy rule) vs benchstat p=${row.p.toFixed(3)}`);
    // Median CIs: benchstat prints "± %.0f%%" of max(hi/center − 1, 1 − lo/center).
    const [oldStats, newStats] = result.variants;
    for (const [stats, printed] of [
      [oldStats, row.oldCiPct],
      [newStats, row.newCiPct],
    ] as const) {
      expect(stats?.medianCi?.reachedRequested).toBe(true);
      if (printed === "?") expect(stats?.medianCi?.halfWidthPercent).toBeNull();
      else expect(Math.abs((stats?.medianCi?.halfWidthPercent as number) - (printed as number))).toBeLessThanOrEqual(0.5);
    }
  });
});

describe("benchstat, 3 runs per variant", () => {
  const { oldRuns, newRuns, rows } = check("old3.txt", "new3.txt", "benchstat3.txt");

  it.each(rows.map((r) => [r.name, r.unit, r] as const))("%s %s: '~' from benchstat, insufficient_data here", (name, unit, row) => {
    expect(row.delta).toBe("~");
    expect(row.oldCiPct).toBe("∞"); // need >= 6 samples for confidence interval at level 0.95
    const result = compareRow(oldRuns, newRuns, name, unit);
    const cmp = result.comparisons[0];
    expect(cmp?.verdict).toBe("insufficient_data");
    expect(cmp?.reason).toMatch(/^needs ≥ 4 runs per variant \(has 3 and 3\)/);
    const printed = cmp?.mannWhitney?.p.toFixed(3);
    if (printed !== row.p.toFixed(3)) {
      expect(cmp?.mannWhitney?.ties).toBe(true);
      differing.push(`3 runs, ${name} ${unit}: p=${printed} (scipy rule) vs benchstat p=${row.p.toFixed(3)}`);
    }
    const exactTies = compareRow(oldRuns, newRuns, name, unit, "benchstat").comparisons[0];
    expect(exactTies?.mannWhitney?.p.toFixed(3)).toBe(row.p.toFixed(3));
    expect(exactTies?.verdict).toBe("insufficient_data");
    expect(result.variants[0]?.medianCi?.reachedRequested).toBe(false);
  });
});

describe("known differences", () => {
  it("are only p-values of tied samples, listed here", () => {
    console.info(`benchstat p-values not reproduced under scipy's rule (all with ties; "benchstat" method reproduces them):\n  ${differing.join("\n  ")}`);
    // With the committed fixtures: SumSquares B/op at 8 runs (0.700 vs 1.000) and Join B/op and
    // allocs/op at 3 runs (0.047 vs 0.100); every difference is a tied sample (asserted above).
    expect(differing.every((d) => d.includes("scipy rule"))).toBe(true);
  });
});
