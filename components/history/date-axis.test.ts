import { describe, expect, it } from "vitest";
import { dateAxis, shortSha } from "./date-axis";

const utc = (y: number, m: number, d = 1) => Date.UTC(y, m - 1, d);

describe("dateAxis", () => {
  it("puts ticks on month starts over months, naming the year on the first tick and at January", () => {
    const axis = dateAxis(utc(2025, 11, 14), utc(2026, 5, 2));
    expect(axis.ticks.map((t) => new Date(t).toISOString().slice(0, 10))).toEqual([
      "2025-12-01",
      "2026-01-01",
      "2026-02-01",
      "2026-03-01",
      "2026-04-01",
      "2026-05-01",
    ]);
    expect(axis.ticks.map(axis.format)).toEqual(["Dec 2025", "Jan 2026", "Feb", "Mar", "Apr", "May"]);
  });

  it("steps by quarters or years over long spans, and by days over short ones", () => {
    const years = dateAxis(utc(2020, 1), utc(2026, 1));
    expect(years.ticks.length).toBeLessThanOrEqual(7);
    expect(years.ticks.every((t) => new Date(t).getUTCDate() === 1)).toBe(true);
    const days = dateAxis(utc(2026, 3, 1), utc(2026, 3, 6));
    expect(days.ticks.map(days.format)).toEqual(["Mar 1", "Mar 2", "Mar 3", "Mar 4", "Mar 5", "Mar 6"]);
  });

  it("keeps ticks inside the span, even for an empty one", () => {
    const axis = dateAxis(utc(2026, 3, 1) + 5, utc(2026, 3, 1) + 5);
    expect(axis.ticks.every((t) => t >= utc(2026, 3, 1))).toBe(true);
  });
});

describe("shortSha", () => {
  it("shortens hex SHAs to 8 characters and leaves other names alone", () => {
    expect(shortSha("0123456789abcdef0123456789abcdef01234567")).toBe("01234567");
    expect(shortSha("v1.2.3")).toBe("v1.2.3");
  });
});
