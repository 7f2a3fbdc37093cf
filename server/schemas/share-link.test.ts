// The share form's expiry choices become the API's `expiresAt`; the API refuses a past expiry.
import { describe, expect, it } from "vitest";
import { ZCreateShareLink, ZShareExpiryForm, ZShareLinkForm } from "./share-link";

const DAY = 24 * 60 * 60 * 1000;
/** A local calendar date "YYYY-MM-DD", `days` from today. */
function localDate(days: number): string {
  const d = new Date();
  d.setDate(d.getDate() + days);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
}

describe("ZShareLinkForm", () => {
  it("never → no expiry; a preset → that many days from now; the baseline is optional", () => {
    expect(ZShareLinkForm.parse({ mode: "live", baseline: "", expiry: "never", expiresOn: "" })).toEqual({ mode: "live", baseline: undefined, expiresAt: null });
    const before = Date.now();
    const { expiresAt, baseline } = ZShareLinkForm.parse({ mode: "snapshot", baseline: "gzip", expiry: "7d", expiresOn: "" });
    const after = Date.now();
    expect(baseline).toBe("gzip");
    expect(expiresAt!.getTime()).toBeGreaterThanOrEqual(before + 7 * DAY);
    expect(expiresAt!.getTime()).toBeLessThanOrEqual(after + 7 * DAY);
  });

  it("a date means the end of that day, local time; today is allowed, yesterday and no date are not", () => {
    const today = ZShareExpiryForm.parse({ expiry: "date", expiresOn: localDate(0) }).expiresAt!;
    expect([today.getHours(), today.getMinutes(), today.getSeconds()]).toEqual([23, 59, 59]);
    expect(today.getDate()).toBe(new Date().getDate());
    for (const expiresOn of [localDate(-1), "", "31.12.2030"]) {
      const result = ZShareExpiryForm.safeParse({ expiry: "date", expiresOn });
      expect(result.success).toBe(false);
      expect(result.error?.issues.map((i) => i.path.join("."))).toEqual(["expiresOn"]);
    }
  });

  it("its output is what the API accepts; the API refuses a past moment on expiresAt", () => {
    const form = ZShareLinkForm.parse({ mode: "live", baseline: "", expiry: "date", expiresOn: localDate(3) });
    expect(ZCreateShareLink.safeParse({ projectSlug: "p", experimentSlug: "e", ...form }).success).toBe(true);
    const past = ZCreateShareLink.safeParse({ projectSlug: "p", experimentSlug: "e", mode: "live", expiresAt: new Date(Date.now() - DAY) });
    expect(past.error?.issues.map((i) => [i.path.join("."), i.message])).toEqual([["expiresAt", "the expiry must be in the future"]]);
  });
});
