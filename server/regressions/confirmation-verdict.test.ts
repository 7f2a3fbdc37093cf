// A confirmation agrees with its breach only when its own runs, against the runs the rule compared
// the commit with, breach the rule too: the % bound by the median, the U-test rules by the test.
import { describe, expect, it } from "vitest";
import { confirmationVerdict } from "./confirmation-verdict";

const latency = { key: "latency", unit: "ms", direction: "lower_is_better" as const };
const throughput = { key: "rps", unit: "req/s", direction: "higher_is_better" as const };
const commits = (...values: number[][]) => values;
const around = (center: number, n: number) => Array.from({ length: n }, (_, i) => center + (i % 3) * 0.1);

describe("confirmationVerdict", () => {
  const bound = { kind: "percent_bound" as const, alpha: null, thresholdPercent: 5, windowSize: 2 };

  it("a % bound: agrees when the confirmation's median is worse than the window's by more than the bound", () => {
    const before = commits(around(200, 3), around(100, 3), around(100, 3));
    const verdict = confirmationVerdict(bound, latency, before, around(110, 6));
    expect(verdict?.agrees).toBe(true);
    // The window is the 2 commits before, not the 200 ms one before them.
    expect(verdict?.text).toMatch(
      /^Confirmed by a confirmation batch of 6 runs: median 110\.\d+ ms against 100\.\d+ ms before \(\+9\.99%\), worse than the 5% bound$/,
    );
  });

  it("a % bound: a planted outlier's confirmation at the old level does not agree", () => {
    const verdict = confirmationVerdict(bound, latency, commits(around(100, 3), around(100, 3)), around(100.2, 6));
    expect(verdict).toMatchObject({ agrees: false });
    expect(verdict?.text).toMatch(/^Not confirmed: a confirmation batch of 6 runs had median .* within the 5% bound$/);
  });

  it("a % bound follows the metric's direction: lower throughput is worse", () => {
    expect(confirmationVerdict(bound, throughput, commits(around(100, 3)), around(90, 4))?.agrees).toBe(true);
    expect(confirmationVerdict(bound, throughput, commits(around(100, 3)), around(110, 4))?.agrees).toBe(false);
  });

  it("the U-test rules: agrees when the confirmation is significantly worse at the rule's α, not otherwise", () => {
    const rule = { kind: "mann_whitney" as const, alpha: 0.05, thresholdPercent: null, windowSize: 8 };
    const before = commits(around(100, 4), around(100, 4));
    expect(confirmationVerdict(rule, latency, before, around(110, 8))).toMatchObject({ agrees: true, text: expect.stringMatching(/≤ α = 0\.05$/) });
    expect(confirmationVerdict(rule, latency, before, around(100, 8))).toMatchObject({
      agrees: false,
      text: expect.stringMatching(/not worse at α = 0\.05\)$/),
    });
    // Better is not a confirmation of worse.
    expect(confirmationVerdict(rule, latency, before, around(90, 8))?.agrees).toBe(false);
    const changePoint = { kind: "change_point" as const, alpha: 0.05, thresholdPercent: null, windowSize: null };
    expect(confirmationVerdict(changePoint, latency, before, around(110, 8))?.agrees).toBe(true);
  });

  it("is null when a side has no runs", () => {
    expect(confirmationVerdict(bound, latency, [], around(110, 4))).toBeNull();
    expect(confirmationVerdict(bound, latency, commits(around(100, 3)), [])).toBeNull();
  });
});
