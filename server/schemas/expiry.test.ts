// What the expiry picker's choices mean: presets from the moment of choosing, a day up to its last
// minute on the user's own clock (shown here in three time zones, one across a DST change).
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { endOfLocalDay, expiryOf, withExpiry, ZExpiresAt } from "./expiry";

const originalZone = process.env.TZ;
/** Runs the rest of a test as if the browser were in `zone` (Node re-reads TZ when it is set). */
function inZone(zone: string) {
  process.env.TZ = zone;
}
beforeEach(() => inZone("UTC"));
afterAll(() => {
  if (originalZone === undefined) delete process.env.TZ;
  else process.env.TZ = originalZone;
});

const now = new Date("2026-11-25T15:20:00.000Z");

describe("expiryOf", () => {
  it("never, or 1, 7 or 30 whole days after the moment of choosing", () => {
    expect(expiryOf({ expiry: "never", expiresOn: "" }, now)).toEqual({ expiresAt: null });
    expect(expiryOf({ expiry: "1d", expiresOn: "" }, now)).toEqual({ expiresAt: new Date("2026-11-26T15:20:00.000Z") });
    expect(expiryOf({ expiry: "7d", expiresOn: "" }, now)).toEqual({ expiresAt: new Date("2026-12-02T15:20:00.000Z") });
    expect(expiryOf({ expiry: "30d", expiresOn: "" }, now)).toEqual({ expiresAt: new Date("2026-12-25T15:20:00.000Z") });
  });

  it("a day means through its last minute where the user is, not in UTC", () => {
    inZone("America/New_York"); // UTC−5 in November
    expect(expiryOf({ expiry: "date", expiresOn: "2026-11-25" }, now)).toEqual({ expiresAt: new Date("2026-11-26T04:59:59.999Z") });
    inZone("Pacific/Auckland"); // UTC+13 in November
    expect(expiryOf({ expiry: "date", expiresOn: "2026-11-26" }, now)).toEqual({ expiresAt: new Date("2026-11-26T10:59:59.999Z") });
    inZone("UTC");
    expect(expiryOf({ expiry: "date", expiresOn: "2026-11-25" }, now)).toEqual({ expiresAt: new Date("2026-11-25T23:59:59.999Z") });
  });

  it("a day after a daylight-saving change ends at that day's own offset", () => {
    inZone("Europe/Berlin"); // UTC+1 in winter, UTC+2 from 29 March 2027
    expect(endOfLocalDay("2027-03-28")?.toISOString()).toBe("2027-03-28T21:59:59.999Z");
    expect(endOfLocalDay("2027-01-10")?.toISOString()).toBe("2027-01-10T22:59:59.999Z");
  });

  it("today is allowed until it is over where the user is", () => {
    // 15:20 UTC is already the 26th in Auckland: the 25th is over there, the 26th is today.
    inZone("Pacific/Auckland");
    expect(expiryOf({ expiry: "date", expiresOn: "2026-11-25" }, now)).toEqual({ problem: "that day is already over; pick today or a later day" });
    expect(expiryOf({ expiry: "date", expiresOn: "2026-11-26" }, now)).toHaveProperty("expiresAt");
    // …and still the 25th in New York.
    inZone("America/New_York");
    expect(expiryOf({ expiry: "date", expiresOn: "2026-11-25" }, now)).toHaveProperty("expiresAt");
  });

  it("refuses a missing, malformed or impossible day and says which", () => {
    expect(expiryOf({ expiry: "date", expiresOn: "" }, now)).toEqual({ problem: "pick the last day it works" });
    expect(expiryOf({ expiry: "date", expiresOn: "31.12.2030" }, now)).toEqual({ problem: "use a date like 2026-12-31" });
    expect(expiryOf({ expiry: "date", expiresOn: "2027-02-29" }, now)).toEqual({ problem: "use a date like 2026-12-31" });
    expect(endOfLocalDay("2028-02-29")?.toISOString()).toBe("2028-02-29T23:59:59.999Z");
  });

  it("ignores a leftover day when a preset is chosen", () => {
    expect(expiryOf({ expiry: "7d", expiresOn: "1999-01-01" }, now)).toEqual({ expiresAt: new Date("2026-12-02T15:20:00.000Z") });
  });
});

describe("withExpiry", () => {
  const ZForm = withExpiry({});

  it("turns the picker into expiresAt and keeps the other fields", () => {
    const parsed = withExpiry({ name: z.string().trim() }).parse({ name: " ci ", expiry: "never", expiresOn: "" });
    expect(parsed).toEqual({ name: "ci", expiresAt: null });
  });

  it("puts a day that cannot be the end on expiresOn, and an unknown preset on expiry", () => {
    const past = ZForm.safeParse({ expiry: "date", expiresOn: "2001-01-01" });
    expect(past.error?.issues.map((issue) => [issue.path.join("."), issue.message])).toEqual([
      ["expiresOn", "that day is already over; pick today or a later day"],
    ]);
    const unknown = ZForm.safeParse({ expiry: "90d", expiresOn: "" });
    expect(unknown.error?.issues.map((issue) => [issue.path.join("."), issue.message])).toEqual([["expiry", "choose when it expires"]]);
  });

  it("its output is what the procedures take", () => {
    const form = ZForm.parse({ expiry: "date", expiresOn: "2099-06-30" });
    expect(ZExpiresAt.safeParse(form.expiresAt).success).toBe(true);
  });
});

describe("ZExpiresAt", () => {
  it("takes null (never) or a future moment, and refuses a past one", () => {
    expect(ZExpiresAt.parse(null)).toBeNull();
    expect(ZExpiresAt.safeParse(new Date(Date.now() + 60_000)).success).toBe(true);
    expect(ZExpiresAt.safeParse(new Date(Date.now() - 60_000)).error?.issues.map((issue) => issue.message)).toEqual(["the expiry must be in the future"]);
  });
});
