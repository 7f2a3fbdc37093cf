import { afterEach, describe, expect, it } from "vitest";
import { authBaseURL, defaultPublicOrigin, publicOrigin, requestOrigin, servedOverHttps } from "./public-origin";

const SETTINGS = ["VERSUS_PUBLIC_URL", "VERSUS_TRUSTED_PROXIES", "PORT"] as const;
const headers = (values: Record<string, string>) => new Headers(values);
const forged = headers({ host: "versus.test:8080", "x-forwarded-host": "evil.example", "x-forwarded-proto": "https" });

afterEach(() => {
  for (const name of SETTINGS) delete process.env[name];
});

describe("publicOrigin", () => {
  it("follows the Host header over http when no proxy is trusted, whatever X-Forwarded-* say", () => {
    expect(publicOrigin(forged)).toBe("http://versus.test:8080");
    expect(servedOverHttps(forged)).toBe(false);
  });

  it("follows the nearest hop of X-Forwarded-Host and -Proto from a trusted proxy", () => {
    process.env.VERSUS_TRUSTED_PROXIES = "10.0.0.0/8";
    expect(publicOrigin(forged)).toBe("https://evil.example");
    expect(servedOverHttps(forged)).toBe(true);
    // A proxy that appends puts its own value last; what the client sent before it does not count.
    expect(publicOrigin(headers({ host: "internal:3000", "x-forwarded-host": "forged.example, versus.example.com", "x-forwarded-proto": "http, https" }))).toBe(
      "https://versus.example.com",
    );
    // A proxy that sends only the host: its scheme is http; no forwarded host: the Host header.
    expect(publicOrigin(headers({ host: "internal:3000", "x-forwarded-host": "versus.example.com" }))).toBe("http://versus.example.com");
    expect(publicOrigin(headers({ host: "internal:3000" }))).toBe("http://internal:3000");
  });

  it("takes no host with a path, user or other smuggled parts", () => {
    process.env.VERSUS_TRUSTED_PROXIES = "127.0.0.1";
    for (const smuggled of ["evil.example/phish", "user@evil.example", "evil.example?x", "evil example", "evil.example#x"]) {
      expect(requestOrigin(headers({ host: "versus.test", "x-forwarded-host": smuggled })), smuggled).toBe("http://versus.test");
      expect(requestOrigin(headers({ host: smuggled })), smuggled).toBeUndefined();
    }
    expect(requestOrigin(headers({ host: "[::1]:3000" }))).toBe("http://[::1]:3000");
  });

  it("uses VERSUS_PUBLIC_URL over any request header, without a trailing slash", () => {
    process.env.VERSUS_PUBLIC_URL = "https://versus.example.com/";
    process.env.VERSUS_TRUSTED_PROXIES = "127.0.0.1";
    expect(publicOrigin(forged)).toBe("https://versus.example.com");
    expect(authBaseURL()).toBe("https://versus.example.com");
    expect(defaultPublicOrigin()).toBe("https://versus.example.com");
  });

  it("falls back to localhost on PORT when neither the setting nor the request says", () => {
    process.env.PORT = "3456";
    expect(publicOrigin(headers({}))).toBe("http://localhost:3456");
    expect(publicOrigin(headers({}), "http://test.local/api/v1/results")).toBe("http://test.local");
    expect(authBaseURL()).toMatchObject({ fallback: "http://localhost:3456", protocol: "http" });
  });
});
