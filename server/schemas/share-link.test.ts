// The share forms' fields become the API's `expiresAt`; the API refuses a past expiry. What
// each expiry choice means is tested in expiry.test.ts.
import { describe, expect, it } from "vitest";
import { ZCreateShareLink, ZSetShareLinkExpiry, ZShareExpiryForm, ZShareLinkForm } from "./share-link";

const DAY = 24 * 60 * 60 * 1000;

describe("ZShareLinkForm", () => {
  it("never → no expiry; a preset → that many days from now; the baseline is optional", () => {
    expect(ZShareLinkForm.parse({ mode: "live", baseline: "", expiry: "never", expiresOn: "" })).toEqual({
      mode: "live",
      baseline: undefined,
      expiresAt: null,
    });
    const before = Date.now();
    const { expiresAt, baseline } = ZShareLinkForm.parse({ mode: "snapshot", baseline: "gzip", expiry: "7d", expiresOn: "" });
    const after = Date.now();
    expect(baseline).toBe("gzip");
    expect(expiresAt!.getTime()).toBeGreaterThanOrEqual(before + 7 * DAY);
    expect(expiresAt!.getTime()).toBeLessThanOrEqual(after + 7 * DAY);
  });

  it("a past, missing or malformed day is refused on expiresOn", () => {
    for (const expiresOn of ["2001-01-01", "", "31.12.2030"]) {
      const result = ZShareLinkForm.safeParse({ mode: "live", baseline: "", expiry: "date", expiresOn });
      expect(result.error?.issues.map((issue) => issue.path.join("."))).toEqual(["expiresOn"]);
    }
  });

  it("its output is what the API accepts; the API refuses a past moment on expiresAt", () => {
    const form = ZShareLinkForm.parse({ mode: "live", baseline: "", expiry: "date", expiresOn: "2099-12-31" });
    expect(ZCreateShareLink.safeParse({ projectSlug: "p", experimentSlug: "e", ...form }).success).toBe(true);
    const past = ZCreateShareLink.safeParse({ projectSlug: "p", experimentSlug: "e", mode: "live", expiresAt: new Date(Date.now() - DAY) });
    expect(past.error?.issues.map((i) => [i.path.join("."), i.message])).toEqual([["expiresAt", "the expiry must be in the future"]]);
  });
});

describe("ZShareExpiryForm", () => {
  it("changing an expiry sends what setExpiry accepts", () => {
    const { expiresAt } = ZShareExpiryForm.parse({ expiry: "1d", expiresOn: "" });
    expect(ZSetShareLinkExpiry.safeParse({ projectSlug: "p", linkId: "l1", expiresAt }).success).toBe(true);
    expect(ZShareExpiryForm.parse({ expiry: "never", expiresOn: "" })).toEqual({ expiresAt: null });
  });
});
