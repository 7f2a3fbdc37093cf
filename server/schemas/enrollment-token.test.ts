// What an enrollment token's expiry choice means, at a fixed moment.
import { describe, expect, it } from "vitest";
import { endOfUtcDay, resolveExpiry, ZCreateEnrollmentToken } from "./enrollment-token";

const now = new Date("2026-11-30T15:20:00.000Z");

describe("resolveExpiry", () => {
  it("never expires, or expires whole days after creation", () => {
    expect(resolveExpiry({ expiresIn: "never" }, now)).toEqual({ expiresAt: null });
    expect(resolveExpiry({ expiresIn: "1d" }, now)).toEqual({ expiresAt: new Date("2026-12-01T15:20:00.000Z") });
    expect(resolveExpiry({ expiresIn: "7d" }, now)).toEqual({ expiresAt: new Date("2026-12-07T15:20:00.000Z") });
    expect(resolveExpiry({ expiresIn: "30d" }, now)).toEqual({ expiresAt: new Date("2026-12-30T15:20:00.000Z") });
  });

  it("a date means through the end of that day in UTC, today included", () => {
    expect(resolveExpiry({ expiresIn: "date", expiresOn: "2026-11-30" }, now)).toEqual({ expiresAt: new Date("2026-11-30T23:59:59.999Z") });
    expect(resolveExpiry({ expiresIn: "date", expiresOn: "2027-02-28" }, now)).toEqual({ expiresAt: new Date("2027-02-28T23:59:59.999Z") });
  });

  it("refuses a past, missing or impossible date and says which", () => {
    expect(resolveExpiry({ expiresIn: "date", expiresOn: "2026-11-29" }, now)).toEqual({ problem: expect.stringContaining("already over") });
    expect(resolveExpiry({ expiresIn: "date" }, now)).toEqual({ problem: "pick the last day the token works" });
    expect(resolveExpiry({ expiresIn: "date", expiresOn: "2026-02-31" }, now)).toEqual({ problem: "use a date like 2026-12-31" });
    expect(resolveExpiry({ expiresIn: "date", expiresOn: "next week" }, now)).toEqual({ problem: "use a date like 2026-12-31" });
  });

  it("ignores a leftover date when another choice is made", () => {
    expect(resolveExpiry({ expiresIn: "7d", expiresOn: "1999-01-01" }, now)).toEqual({ expiresAt: new Date("2026-12-07T15:20:00.000Z") });
  });
});

describe("endOfUtcDay", () => {
  it("knows leap days", () => {
    expect(endOfUtcDay("2028-02-29")?.toISOString()).toBe("2028-02-29T23:59:59.999Z");
    expect(endOfUtcDay("2027-02-29")).toBeUndefined();
  });
});

describe("ZCreateEnrollmentToken", () => {
  it("defaults to never expiring and trims the name", () => {
    expect(ZCreateEnrollmentToken.parse({ projectSlug: "perf", name: "  build farm " })).toEqual({ projectSlug: "perf", name: "build farm", expiresIn: "never" });
  });

  it("puts a past date on the expiresOn field, next to any other field's problem", () => {
    const result = ZCreateEnrollmentToken.safeParse({ projectSlug: "perf", name: "", expiresIn: "date", expiresOn: "2001-01-01" });
    expect(result.error?.issues.map((issue) => [issue.path.join("."), issue.message])).toEqual([
      ["name", "name is required"],
      ["expiresOn", "that day is already over (UTC); pick today or a later day"],
    ]);
  });

  it("refuses an unknown expiry choice", () => {
    const result = ZCreateEnrollmentToken.safeParse({ projectSlug: "perf", name: "ci", expiresIn: "90d" });
    expect(result.error?.issues.map((issue) => [issue.path.join("."), issue.message])).toEqual([["expiresIn", "choose when the token expires"]]);
  });
});
