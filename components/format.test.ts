// A picked moment is spelled out on the user's own clock, with the UTC the lists use beside it.
import { afterEach, describe, expect, it } from "vitest";
import { formatYourTime } from "./format";

const originalZone = process.env.TZ;
afterEach(() => {
  if (originalZone === undefined) delete process.env.TZ;
  else process.env.TZ = originalZone;
});

describe("formatYourTime", () => {
  it("names the day and minute where the user is, then UTC", () => {
    process.env.TZ = "America/New_York";
    expect(formatYourTime(new Date("2026-11-26T04:59:59.999Z"))).toBe("25 Nov 2026, 23:59 your time (2026-11-26 04:59 UTC)");
    process.env.TZ = "Asia/Kolkata";
    expect(formatYourTime(new Date("2027-03-15T18:29:59.999Z"))).toBe("15 Mar 2027, 23:59 your time (2027-03-15 18:29 UTC)");
  });
});
