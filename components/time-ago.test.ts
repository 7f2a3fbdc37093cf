import { describe, expect, it } from "vitest";
import { duration, timeAgo } from "./time-ago";

const now = new Date("2026-05-01T12:00:00Z");
const before = (seconds: number) => new Date(now.getTime() - seconds * 1000);

describe("timeAgo", () => {
  it("uses seconds, minutes, hours, then days", () => {
    expect(timeAgo(before(0), now)).toBe("0 s ago");
    expect(timeAgo(before(12), now)).toBe("12 s ago");
    expect(timeAgo(before(59.4), now)).toBe("59 s ago");
    expect(timeAgo(before(60), now)).toBe("1 min ago");
    expect(timeAgo(before(3599), now)).toBe("59 min ago");
    expect(timeAgo(before(3600), now)).toBe("1 h ago");
    expect(timeAgo(before(47 * 3600), now)).toBe("47 h ago");
    expect(timeAgo(before(48 * 3600), now)).toBe("2 d ago");
  });

  it("reads a clock slightly ahead of this one as just now", () => {
    expect(timeAgo(before(-3), now)).toBe("0 s ago");
  });
});

describe("duration", () => {
  it("says milliseconds, seconds, then minutes and seconds, then hours and minutes", () => {
    expect(duration(0)).toBe("0 ms");
    expect(duration(149.6)).toBe("150 ms");
    expect(duration(4_400)).toBe("4 s");
    expect(duration(65_000)).toBe("1 min 5 s");
    expect(duration(120_000)).toBe("2 min");
    expect(duration(3_660_000)).toBe("1 h 1 min");
    expect(duration(7_200_000)).toBe("2 h");
  });
});
