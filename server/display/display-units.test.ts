// The unit rule (server/display/display.ts): durations as ns, µs, ms, s whatever unit the metric has;
// bytes in binary steps labelled B, KiB, MiB, GiB (never "KB" for 1024); other rates, counts and
// unknown units as written. Lone measurements keep 4 significant digits, the same as the tables.
import { describe, expect, it } from "vitest";
import { formatElapsed, formatInScale, formatMeasure, unitScale } from "./display";

describe("durations", () => {
  it("scales ns → µs → ms → s whatever the input unit", () => {
    expect(formatMeasure(850, "ns")).toBe("850 ns");
    expect(formatMeasure(1530, "ns")).toBe("1.53 µs");
    expect(formatMeasure(1_530_000, "ns")).toBe("1.53 ms");
    expect(formatMeasure(2_500_000_000, "ns")).toBe("2.5 s");
    expect(formatMeasure(12.3, "ms")).toBe("12.3 ms");
    expect(formatMeasure(0.25, "ms")).toBe("250 µs");
    expect(formatMeasure(1500, "ms")).toBe("1.5 s");
    expect(formatMeasure(0.004, "s")).toBe("4 ms");
    expect(formatMeasure(3600, "s")).toBe("3,600 s");
    expect(formatMeasure(42, "us")).toBe("42 µs");
    expect(formatMeasure(4200, "µs")).toBe("4.2 ms");
    expect(formatMeasure(0.5, "ns")).toBe("0.5 ns");
  });

  it("rounds into the next unit instead of printing 1,000", () => {
    expect(formatMeasure(999.96, "us")).toBe("1 ms");
    expect(formatMeasure(999.4, "us")).toBe("999.4 µs");
  });

  it("keeps a per-operation suffix (go test's ns/op)", () => {
    expect(formatMeasure(37.06, "ns/op")).toBe("37.06 ns/op");
    expect(formatMeasure(123_456, "ns/op")).toBe("123.5 µs/op");
  });

  it("handles negative values and zero", () => {
    expect(formatMeasure(-1500, "ns")).toBe("-1.5 µs");
    expect(formatMeasure(0, "ms")).toBe("0 ms");
    expect(formatMeasure(0, "req/s")).toBe("0 req/s");
  });
});

describe("bytes: binary steps, labelled KiB, MiB, GiB", () => {
  it("scales B → KiB → MiB → GiB", () => {
    expect(formatMeasure(80, "B")).toBe("80 B");
    // The defect: the chart said "10.6 KB" for 10,892 B, a KiB labelled as a kilobyte.
    expect(formatMeasure(10_892, "B")).toBe("10.64 KiB");
    expect(formatMeasure(51_200, "B")).toBe("50 KiB");
    expect(formatMeasure(1_572_864, "B")).toBe("1.5 MiB");
    expect(formatMeasure(3 * 1024 ** 3, "B")).toBe("3 GiB");
    expect(formatMeasure(2048, "KB")).toBe("2 MiB");
    expect(formatMeasure(0.5, "MB")).toBe("512 KiB");
    expect(formatMeasure(100, "bytes")).toBe("100 B");
    expect(formatMeasure(4096, "B/op")).toBe("4 KiB/op");
    expect(formatMeasure(25_276_510_208, "bytes")).toBe("23.54 GiB");
  });

  it("scales byte rates the same way", () => {
    expect(formatMeasure(431.7, "MB/s")).toBe("431.7 MiB/s");
    expect(formatMeasure(1536, "MB/s")).toBe("1.5 GiB/s");
    expect(formatMeasure(2048, "B/s")).toBe("2 KiB/s");
  });

  it("leaves megabits alone", () => {
    expect(formatMeasure(2048, "Mb")).toBe("2,048 Mb");
  });
});

describe("rates, percent, counts and unknown units", () => {
  it("keeps other rates in their own unit, thousands grouped", () => {
    expect(formatMeasure(950, "req/s")).toBe("950 req/s");
    expect(formatMeasure(12_345, "req/s")).toBe("12,345 req/s");
    expect(formatMeasure(39_000, "ops/s")).toBe("39,000 ops/s");
    expect(formatMeasure(48.49, "iter/s")).toBe("48.49 iter/s");
  });

  it("writes percent without a space", () => {
    expect(formatMeasure(12.345, "%")).toBe("12.35%");
    expect(formatMeasure(100, "%")).toBe("100%");
  });

  it("writes plain counts as numbers and leaves unknown units as written", () => {
    expect(formatMeasure(15_000, "count")).toBe("15,000");
    expect(formatMeasure(7, "")).toBe("7");
    expect(formatMeasure(3.25, "allocs/op")).toBe("3.25 allocs/op");
    expect(formatMeasure(1234.5, "widgets")).toBe("1,235 widgets");
  });

  it("shows a dash for a missing value", () => {
    expect(formatMeasure(null, "ms")).toBe("—");
    expect(formatMeasure(undefined, "B")).toBe("—");
    expect(formatMeasure(Number.POSITIVE_INFINITY, "B")).toBe("—");
  });
});

describe("one scale for several figures (an axis)", () => {
  it("writes every figure in the unit chosen for the largest", () => {
    const scale = unitScale("ns", 1_500_000);
    expect([500_000, 1_000_000, 1_500_000].map((v) => formatInScale(v, scale))).toEqual(["0.5 ms", "1 ms", "1.5 ms"]);
    expect(unitScale("%", 50)).toEqual({ factor: 1, unit: "%", glued: true });
    expect(unitScale("allocs/op", 3)).toEqual({ factor: 1, unit: "allocs/op", glued: false });
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
