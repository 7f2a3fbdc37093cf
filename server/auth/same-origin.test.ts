import { afterEach, describe, expect, it } from "vitest";
import { isCrossSiteWrite } from "./same-origin";

const post = (headers: Record<string, string>, url = "http://localhost:3000/api/trpc/experiment.delete") => ({
  method: "POST",
  url,
  headers: new Headers(headers),
});

describe("isCrossSiteWrite", () => {
  afterEach(() => {
    delete process.env.VERSUS_PUBLIC_URL;
    delete process.env.VERSUS_TRUSTED_PROXIES;
  });

  it("refuses a cookie-carrying POST another site's page sent", () => {
    expect(isCrossSiteWrite(post({ cookie: "versus.session_token=x", "sec-fetch-site": "cross-site" }))).toBe(true);
    expect(isCrossSiteWrite(post({ cookie: "versus.session_token=x", "sec-fetch-site": "same-site" }))).toBe(true);
    expect(isCrossSiteWrite(post({ cookie: "versus.session_token=x", origin: "https://evil.example", host: "localhost:3000" }))).toBe(true);
  });

  it("lets this site's own pages through, by Fetch Metadata or by Origin", () => {
    expect(isCrossSiteWrite(post({ cookie: "c=1", "sec-fetch-site": "same-origin" }))).toBe(false);
    expect(isCrossSiteWrite(post({ cookie: "c=1", origin: "http://localhost:3000", host: "localhost:3000" }))).toBe(false);
    process.env.VERSUS_PUBLIC_URL = "https://versus.example.com/";
    expect(isCrossSiteWrite(post({ cookie: "c=1", origin: "https://versus.example.com", host: "internal:3000" }))).toBe(false);
  });

  it("ignores reads, cookieless requests and non-browser clients", () => {
    expect(
      isCrossSiteWrite({ method: "GET", url: "http://localhost:3000/api/trpc/x", headers: new Headers({ cookie: "c=1", "sec-fetch-site": "cross-site" }) }),
    ).toBe(false);
    expect(isCrossSiteWrite(post({ "sec-fetch-site": "cross-site" }))).toBe(false);
    expect(isCrossSiteWrite(post({ cookie: "c=1" }))).toBe(false);
  });
});
