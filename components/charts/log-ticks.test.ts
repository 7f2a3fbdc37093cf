import { describe, expect, it } from "vitest";
import { logAxis } from "./log-ticks";

describe("logAxis", () => {
  it("uses 1-2-5 steps across decades and a domain on ticks around the data", () => {
    expect(logAxis(3, 700)).toEqual({ domain: [2, 1000], ticks: [2, 5, 10, 20, 50, 100, 200, 500, 1000] });
  });

  it("uses every digit within a decade", () => {
    expect(logAxis(12, 38)).toEqual({ domain: [10, 40], ticks: [10, 20, 30, 40] });
  });

  it("keeps only powers of ten over many decades", () => {
    expect(logAxis(0.0011, 180)).toEqual({ domain: [0.001, 200], ticks: [0.001, 0.01, 0.1, 1, 10, 100] });
  });

  it("has no log axis for values at or below zero", () => {
    expect(logAxis(0, 10)).toBeNull();
    expect(logAxis(-1, 10)).toBeNull();
  });
});
