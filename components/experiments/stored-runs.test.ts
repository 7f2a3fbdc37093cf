import { describe, expect, it } from "vitest";
import { measuredRunsText } from "./stored-runs";

describe("measuredRunsText", () => {
  it("says what is stored beside what was planned (the history example: 3 planned, 900 stored)", () => {
    expect(measuredRunsText(3, [{ name: "gzip", runCount: 900 }])).toBe("3 per variant planned, 900 runs stored");
  });
  it("says per variant when the variants hold the same number", () => {
    expect(
      measuredRunsText(5, [
        { name: "Plain", runCount: 5 },
        { name: "Gzip", runCount: 5 },
      ]),
    ).toBe("5 per variant planned, 10 runs stored (5 per variant)");
  });
  it("names each variant's count when they differ", () => {
    expect(
      measuredRunsText(5, [
        { name: "Plain", runCount: 5 },
        { name: "Gzip", runCount: 7 },
      ]),
    ).toBe("5 per variant planned, 12 runs stored: Plain 5, Gzip 7");
  });
  it("says when nothing is stored yet", () => {
    expect(
      measuredRunsText(3, [
        { name: "a", runCount: 0 },
        { name: "b", runCount: 0 },
      ]),
    ).toBe("3 per variant planned, none stored yet");
  });
});
