import { describe, expect, it } from "vitest";
import { elapsedAxis, linearAxis } from "./nice-axis";

describe("linearAxis", () => {
  it("puts ticks on round numbers of the unit it prints", () => {
    const bytes = linearAxis("B", 8300, 51_314, { fromZero: true });
    expect(bytes.ticks.map(bytes.format)).toEqual(["0 B", "20 KiB", "40 KiB", "60 KiB"]);
    expect(bytes.ticks[1]).toBe(20 * 1024);
    const latency = linearAxis("ms", 10.5, 14.5);
    expect(latency.ticks).toEqual([10, 11, 12, 13, 14, 15]);
    expect(latency.domain).toEqual([10, 15]);
    const rate = linearAxis("req/s", 0, 1210, { fromZero: true });
    // A rate keeps its unit: "1,500 req/s" as in the table, not "1.5k req/s".
    expect(rate.ticks.map(rate.format)).toEqual(["0 req/s", "500 req/s", "1,000 req/s", "1,500 req/s"]);
  });

  it("gives a flat series some room", () => {
    expect(linearAxis("ms", 5, 5).domain[0]).toBeLessThan(5);
    expect(linearAxis("ms", 5, 5).domain[1]).toBeGreaterThan(5);
    expect(linearAxis("%", 0, 0, { fromZero: true }).domain).toEqual([0, 1]);
  });

  it("keeps ticks exact in the metric's unit", () => {
    const axis = linearAxis("ns", 0, 1_500_000, { fromZero: true });
    expect(axis.ticks).toEqual([0, 500_000, 1_000_000, 1_500_000]);
    expect(axis.ticks.map(axis.format)).toEqual(["0 ns", "0.5 ms", "1 ms", "1.5 ms"]);
  });
});

describe("elapsedAxis", () => {
  it("steps by round minutes over ten minutes", () => {
    const axis = elapsedAxis(599_000);
    expect(axis.ticks).toEqual([0, 120e3, 240e3, 360e3, 480e3]);
    expect(axis.ticks.map(axis.format)).toEqual(["0:00", "2:00", "4:00", "6:00", "8:00"]);
  });

  it("steps by seconds over a short run", () => {
    expect(elapsedAxis(3000).ticks).toEqual([0, 500, 1000, 1500, 2000, 2500, 3000]);
  });
});
