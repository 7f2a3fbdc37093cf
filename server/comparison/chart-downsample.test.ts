import { describe, expect, it } from "vitest";
import { downsampleMinMax, extremeIndices } from "./chart-downsample";

describe("downsampleMinMax", () => {
  it("keeps a short series as it is, in time order", () => {
    expect(downsampleMinMax([2000, 0, 1000], [3, 1, 2])).toEqual([
      { tMs: 0, value: 1 },
      { tMs: 1000, value: 2 },
      { tMs: 2000, value: 3 },
    ]);
  });

  it("thins an hour of seconds to at most 600 points and keeps every slice's extremes", () => {
    const n = 3600;
    const offsets = Array.from({ length: n }, (_, i) => i * 1000);
    const values = offsets.map((_, i) => Math.sin(i / 50) * 100);
    values[1777] = 1e6;
    values[42] = -1e6;
    const thinned = downsampleMinMax(offsets, values);
    expect(thinned.length).toBeLessThanOrEqual(600);
    expect(thinned).toContainEqual({ tMs: 1_777_000, value: 1e6 });
    expect(thinned).toContainEqual({ tMs: 42_000, value: -1e6 });
    for (let i = 1; i < thinned.length; i++) expect(thinned[i]!.tMs).toBeGreaterThan(thinned[i - 1]!.tMs);
    // Each of the 300 slices of 12 points contributes its min and max.
    for (let s = 0; s < 300; s++) {
      const slice = values.slice(s * 12, s * 12 + 12);
      const kept = thinned.filter((p) => p.tMs >= s * 12_000 && p.tMs < (s + 1) * 12_000).map((p) => p.value);
      expect(Math.max(...kept)).toBe(Math.max(...slice));
      expect(Math.min(...kept)).toBe(Math.min(...slice));
    }
  });

  it("keeps a flat slice's point once", () => {
    const thinned = downsampleMinMax(
      Array.from({ length: 1000 }, (_, i) => i),
      new Array(1000).fill(5),
      10,
    );
    expect(thinned).toHaveLength(5);
  });
});

describe("extremeIndices", () => {
  it("keeps every slice's lowest and highest, the indices asked for, in order, and all of a short series", () => {
    const values = Array.from({ length: 1000 }, (_, i) => Math.sin(i / 7));
    values[123] = 50;
    values[877] = -50;
    const kept = extremeIndices(values, 100, [500, 501, -3, 5000]);
    expect(kept).toEqual([...kept].sort((a, b) => a - b));
    expect(new Set(kept).size).toBe(kept.length);
    expect(kept.length).toBeLessThanOrEqual(102);
    for (const i of [123, 877, 500, 501]) expect(kept).toContain(i);
    expect(kept.every((i) => i >= 0 && i < 1000)).toBe(true);
    expect(extremeIndices([3, 1, 2], 100, [7])).toEqual([0, 1, 2]);
  });
});
