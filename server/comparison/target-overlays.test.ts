import { describe, expect, it } from "vitest";
import { targetOverlays, type ProbeMetric, type VariantSeries } from "./target-overlays";

const metric = (key: string, probe: string | null, unit = "%"): ProbeMetric => ({ key, unit, direction: "lower_is_better", probe });

describe("targetOverlays", () => {
  const metrics = [
    metric("latency", null, "ms"),
    metric("app-1.cpu_percent", "app-1"),
    metric("app-1.rss", "app-1", "B"),
    metric("app-2.cpu_percent", "app-2"),
  ];
  const series: Record<string, VariantSeries[]> = {
    "app-1.cpu_percent": [
      { variant: "One", offsetsMs: [1000, 2000, 3000], values: [80, 90, 70] },
      { variant: "One", offsetsMs: [1010, 1990], values: [60, 70] },
      { variant: "Two", offsetsMs: [1000, 2000], values: [40, 42] },
    ],
    "app-2.cpu_percent": [{ variant: "Two", offsetsMs: [1000, 2000], values: [38, 44] }],
    latency: [{ variant: "One", offsetsMs: [1000], values: [5] }],
  };
  const overlays = targetOverlays(metrics, ["One", "Two"], (key) => series[key] ?? []);

  it("overlays a figure two probes report; one probe's own figure, and the client's, are not", () => {
    expect(overlays.map((overlay) => [overlay.suffix, overlay.probes])).toEqual([["cpu_percent", ["app-1", "app-2"]]]);
    expect(overlays[0]?.unit).toBe("%");
  });

  it("draws a line per variant and probe with runs, each second the mean of its runs' readings in that second", () => {
    expect(overlays[0]?.lines).toEqual([
      {
        variant: "One",
        probe: "app-1",
        runs: 2,
        points: [
          { tMs: 1000, value: 70 },
          { tMs: 2000, value: 80 },
          { tMs: 3000, value: 70 },
        ],
      },
      {
        variant: "Two",
        probe: "app-1",
        runs: 1,
        points: [
          { tMs: 1000, value: 40 },
          { tMs: 2000, value: 42 },
        ],
      },
      {
        variant: "Two",
        probe: "app-2",
        runs: 1,
        points: [
          { tMs: 1000, value: 38 },
          { tMs: 2000, value: 44 },
        ],
      },
    ]);
  });

  it("leaves out probes whose figure of the same name is in another unit", () => {
    const mixed = targetOverlays([metric("a.mem", "a", "B"), metric("b.mem", "b", "MiB")], ["One"], () => [{ variant: "One", offsetsMs: [1000], values: [1] }]);
    expect(mixed).toEqual([]);
  });
});
