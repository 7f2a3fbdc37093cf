// What `versus run --confirm` counts as the confirmation agreeing: the same metric of the same
// variant worse in both batches — a planted outlier that the confirmation finds no change in, or
// a different metric worse the second time, is no confirmation.
import { describe, expect, it } from "vitest";
import type { TBatchStatus } from "~/server/schemas/batch-runs";
import { confirmedRegressions } from "./run-batch";

type Result = NonNullable<TBatchStatus["result"]>;
const result = (verdicts: [string, string, "worse" | "better" | "no_change"][]): Result =>
  ({ metrics: verdicts.map(([variant, key, verdict]) => ({ variant, key, verdict })) }) as unknown as Result;

describe("confirmedRegressions", () => {
  it("is the metrics of variants worse in both", () => {
    const first = result([
      ["B", "latency", "worse"],
      ["B", "bytes", "worse"],
      ["C", "latency", "worse"],
    ]);
    const again = result([
      ["B", "latency", "worse"],
      ["B", "bytes", "no_change"],
      ["C", "latency", "better"],
    ]);
    expect(confirmedRegressions(first, again)).toEqual(["latency (B)"]);
  });

  it("is empty when the confirmation finds no change (a planted outlier) or another metric worse", () => {
    expect(confirmedRegressions(result([["B", "latency", "worse"]]), result([["B", "latency", "no_change"]]))).toEqual([]);
    expect(
      confirmedRegressions(
        result([["B", "latency", "worse"]]),
        result([
          ["B", "latency", "no_change"],
          ["B", "bytes", "worse"],
        ]),
      ),
    ).toEqual([]);
  });
});
