import * as hdr from "hdr-histogram-js";
import { describe, expect, it } from "vitest";
import { recordedValues } from "../runs/histogram";
import { distributionOf } from "./chart-distribution";

function encoded(values: number[], scale: number): Uint8Array {
  const histogram = hdr.build();
  for (const value of values) histogram.recordValue(Math.round(value * scale));
  return Buffer.from(hdr.encodeIntoCompressedBase64(histogram), "base64");
}

describe("recordedValues", () => {
  it("reads a stored histogram back in the metric's unit with its counts", () => {
    const recorded = recordedValues(encoded([1.5, 1.5, 2.25, 7], 100), 100);
    expect(recorded.values).toEqual([1.5, 2.25, 7]);
    expect(recorded.counts).toEqual([2, 1, 1]);
  });
});

describe("distributionOf", () => {
  const runs = (values: number[], scale = 100) => [recordedValues(encoded(values, scale), scale)];

  it("gives shares and cumulative shares to six significant digits, the counts exact", () => {
    const d = distributionOf([{ variant: "a", runs: runs([1, 2, 3]) }], [], 3)!;
    expect(d.linear.variants[0]).toEqual({
      variant: "a",
      total: 3,
      counts: [1, 1, 1],
      shares: [0.333333, 0.333333, 0.333333],
      cumulative: [0.333333, 0.666667, 1],
    });
  });

  // Scale 100 keeps these values under 2048 units, where HdrHistogram records them exactly.
  it("shares buckets between variants and accounts for every sample", () => {
    const d = distributionOf(
      [
        { variant: "a", runs: [...runs([1, 2, 3]), ...runs([4, 5], 10)] },
        { variant: "b", runs: runs([10, 10, 10, 20]) },
      ],
      [],
      4,
    )!;
    expect(d.linear.edges).toEqual([1, 5.75, 10.5, 15.25, 20]);
    expect(d.linear.variants).toEqual([
      { variant: "a", total: 5, counts: [5, 0, 0, 0], shares: [1, 0, 0, 0], cumulative: [1, 1, 1, 1] },
      { variant: "b", total: 4, counts: [0, 3, 0, 1], shares: [0, 0.75, 0, 0.25], cumulative: [0, 0.75, 0.75, 1] },
    ]);
    expect(d.log!.edges[0]).toBe(1);
    expect(d.log!.edges[4]).toBe(20);
    expect(d.log!.variants[0]!.counts.reduce((x, y) => x + y, 0)).toBe(5);
    expect(d.suggestedScale).toBe("linear");
  });

  it("has no log buckets for zero or negative values and widens a single value", () => {
    const d = distributionOf([{ variant: "a", runs: runs([0, 0, 0], 1) }], ["b: runs stored summaries only"], 4)!;
    expect(d.log).toBeNull();
    expect(d.linear.edges[0]).toBeLessThan(0);
    expect(d.linear.edges[4]).toBeGreaterThan(0);
    expect(d.linear.variants[0]!.total).toBe(3);
    expect(d.notes).toEqual(["b: runs stored summaries only"]);
  });

  it("is null when nothing was recorded", () => {
    expect(distributionOf([], [])).toBeNull();
  });
});
