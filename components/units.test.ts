import { describe, expect, it } from "vitest";
import { axisFormatter, formatElapsed, formatNumber, formatUnit, scaleFor } from "./units";

describe("formatNumber", () => {
  it("keeps 3 significant digits and groups thousands", () => {
    expect(formatNumber(12.345)).toBe("12.3");
    expect(formatNumber(0.012345)).toBe("0.0123");
    expect(formatNumber(999.4)).toBe("999");
    expect(formatNumber(1234.6)).toBe("1,235");
    expect(formatNumber(-2.5)).toBe("-2.5");
    expect(formatNumber(0)).toBe("0");
    expect(formatNumber(Number.NaN)).toBe("—");
    expect(formatNumber(1.5e-9)).toBe("1.50e-9");
  });
});

describe("formatUnit: time", () => {
  it("scales ns → µs → ms → s whatever the input unit", () => {
    expect(formatUnit(850, "ns")).toBe("850 ns");
    expect(formatUnit(1530, "ns")).toBe("1.53 µs");
    expect(formatUnit(1_530_000, "ns")).toBe("1.53 ms");
    expect(formatUnit(2_500_000_000, "ns")).toBe("2.5 s");
    expect(formatUnit(12.3, "ms")).toBe("12.3 ms");
    expect(formatUnit(0.25, "ms")).toBe("250 µs");
    expect(formatUnit(1500, "ms")).toBe("1.5 s");
    expect(formatUnit(0.004, "s")).toBe("4 ms");
    expect(formatUnit(3600, "s")).toBe("3,600 s");
    expect(formatUnit(42, "us")).toBe("42 µs");
    expect(formatUnit(4200, "µs")).toBe("4.2 ms");
    expect(formatUnit(0.5, "ns")).toBe("0.5 ns");
  });

  it("rounds into the next unit instead of printing 1,000", () => {
    expect(formatUnit(999.96, "us")).toBe("1 ms");
    expect(formatUnit(999.4, "us")).toBe("999 µs");
  });

  it("keeps a per-operation suffix (go test's ns/op)", () => {
    expect(formatUnit(37.06, "ns/op")).toBe("37.1 ns/op");
    expect(formatUnit(123_456, "ns/op")).toBe("123 µs/op");
  });

  it("handles negative values and zero", () => {
    expect(formatUnit(-1500, "ns")).toBe("-1.5 µs");
    expect(formatUnit(0, "ms")).toBe("0 ms");
    expect(formatUnit(0, "req/s")).toBe("0 req/s");
  });
});

describe("formatUnit: bytes (1024-based)", () => {
  it("scales B → KB → MB → GB", () => {
    expect(formatUnit(80, "B")).toBe("80 B");
    expect(formatUnit(51_200, "B")).toBe("50 KB");
    expect(formatUnit(1_572_864, "B")).toBe("1.5 MB");
    expect(formatUnit(3 * 1024 ** 3, "B")).toBe("3 GB");
    expect(formatUnit(2048, "KB")).toBe("2 MB");
    expect(formatUnit(0.5, "MB")).toBe("512 KB");
    expect(formatUnit(100, "bytes")).toBe("100 B");
    expect(formatUnit(4096, "B/op")).toBe("4 KB/op");
  });

  it("scales byte rates the same way", () => {
    expect(formatUnit(431.7, "MB/s")).toBe("432 MB/s");
    expect(formatUnit(1536, "MB/s")).toBe("1.5 GB/s");
    expect(formatUnit(2048, "B/s")).toBe("2 KB/s");
  });
});

describe("formatUnit: rates, percent, counts and unknown units", () => {
  it("gives other rates k/M suffixes", () => {
    expect(formatUnit(950, "req/s")).toBe("950 req/s");
    expect(formatUnit(12_345, "req/s")).toBe("12.3k req/s");
    expect(formatUnit(39_000, "ops/s")).toBe("39k ops/s");
    expect(formatUnit(2_500_000, "msg/s")).toBe("2.5M msg/s");
    expect(formatUnit(48.49, "iter/s")).toBe("48.5 iter/s");
  });

  it("writes percent without a space", () => {
    expect(formatUnit(12.345, "%")).toBe("12.3%");
    expect(formatUnit(100, "%")).toBe("100%");
  });

  it("scales plain counts and leaves unknown units as written", () => {
    expect(formatUnit(15_000, "count")).toBe("15k");
    expect(formatUnit(7, "")).toBe("7");
    expect(formatUnit(3.25, "allocs/op")).toBe("3.25 allocs/op");
    expect(formatUnit(1234.5, "widgets")).toBe("1,235 widgets");
  });

  it("shows a dash for a missing value", () => {
    expect(formatUnit(null, "ms")).toBe("—");
    expect(formatUnit(undefined, "B")).toBe("—");
    expect(formatUnit(Number.POSITIVE_INFINITY, "B")).toBe("—");
  });
});

describe("axisFormatter", () => {
  it("uses one scale for every tick, chosen by the largest", () => {
    const tick = axisFormatter("ns", 1_500_000);
    expect([0, 500_000, 1_000_000, 1_500_000].map(tick)).toEqual(["0 ns", "0.5 ms", "1 ms", "1.5 ms"]);
    const rate = axisFormatter("req/s", 40_000);
    expect([0, 20_000, 40_000].map(rate)).toEqual(["0 req/s", "20k req/s", "40k req/s"]);
  });

  it("leaves unknown units alone", () => {
    expect(axisFormatter("allocs/op", 3)(2)).toBe("2 allocs/op");
    expect(scaleFor("%", 50)).toEqual({ factor: 1, label: "%", glued: true });
  });
});

describe("formatElapsed", () => {
  it("reads ms, s, m:ss or h:mm:ss depending on the span", () => {
    expect(formatElapsed(850, 1000)).toBe("850 ms");
    expect(formatElapsed(45_000, 60_000)).toBe("45 s");
    expect(formatElapsed(750_000, 3_600_000)).toBe("12:30");
    expect(formatElapsed(3_720_000, 3_720_000)).toBe("1:02:00");
  });
});
