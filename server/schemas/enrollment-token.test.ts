// What creating an enrollment token takes, and what its form sends (the expiry picker itself is
// tested in expiry.test.ts).
import { describe, expect, it } from "vitest";
import { ZCreateEnrollmentToken, ZEnrollmentTokenForm } from "./enrollment-token";

describe("ZCreateEnrollmentToken", () => {
  it("defaults to never expiring and trims the name", () => {
    expect(ZCreateEnrollmentToken.parse({ projectSlug: "perf", name: "  build farm " })).toEqual({ projectSlug: "perf", name: "build farm", expiresAt: null });
  });

  it("refuses a blank name and a past expiry, each on its field", () => {
    const result = ZCreateEnrollmentToken.safeParse({ projectSlug: "perf", name: " ", expiresAt: new Date(Date.now() - 60_000) });
    expect(result.error?.issues.map((issue) => [issue.path.join("."), issue.message])).toEqual([
      ["name", "name is required"],
      ["expiresAt", "the expiry must be in the future"],
    ]);
  });
});

describe("ZEnrollmentTokenForm", () => {
  it("sends the name and the moment the picker means", () => {
    const before = Date.now();
    const { name, expiresAt } = ZEnrollmentTokenForm.parse({ name: " ci ", expiry: "30d", expiresOn: "" });
    expect(name).toBe("ci");
    expect(expiresAt!.getTime()).toBeGreaterThanOrEqual(before + 30 * 24 * 60 * 60 * 1000);
    expect(ZCreateEnrollmentToken.safeParse({ projectSlug: "perf", name, expiresAt }).success).toBe(true);
  });

  it("puts a past day on expiresOn, next to the name's problem", () => {
    const result = ZEnrollmentTokenForm.safeParse({ name: "", expiry: "date", expiresOn: "2001-01-01" });
    expect(result.error?.issues.map((issue) => [issue.path.join("."), issue.message])).toEqual([
      ["name", "name is required"],
      ["expiresOn", "that day is already over; pick today or a later day"],
    ]);
  });
});
