// The forwarding headers a request keeps, by who sent it: a trusted proxy's are kept with its
// own address appended; anyone else's are replaced by the connection's address alone.
import { describe, expect, it } from "vitest";
import { settledHeaders, trustedProxyList } from "./forwarded-headers";

const trusted = trustedProxyList(["10.0.0.0/8", "fd00::/8", "192.0.2.10"]);
const sent = [
  "Host",
  "versus.local",
  "X-Forwarded-For",
  "198.51.100.1",
  "x-forwarded-for",
  "203.0.113.5",
  "X-Forwarded-Proto",
  "https",
  "X-Forwarded-Host",
  "evil.example",
  "Forwarded",
  "for=1.2.3.4",
  "Accept",
  "*/*",
];

describe("settledHeaders", () => {
  it("from a peer nobody vouched for: X-Forwarded-For is the peer alone, the other forwarding headers are gone", () => {
    const settled = settledHeaders(sent, "127.0.0.1", trusted);
    expect(settled).toEqual({
      fromProxy: false,
      forwardedFor: "127.0.0.1",
      rawHeaders: ["Host", "versus.local", "Accept", "*/*", "X-Forwarded-For", "127.0.0.1"],
    });
  });

  it("from a trusted proxy: everything is kept and the proxy's address is appended to the chain", () => {
    for (const peer of ["10.1.2.3", "::ffff:10.1.2.3", "fd12::7", "192.0.2.10"]) {
      const settled = settledHeaders(sent, peer, trusted);
      expect(settled.fromProxy, peer).toBe(true);
      expect(settled.forwardedFor).toBe(`198.51.100.1, 203.0.113.5, ${peer}`);
      expect(settled.rawHeaders).toEqual([
        ...["Host", "versus.local", "X-Forwarded-Proto", "https", "X-Forwarded-Host", "evil.example", "Forwarded", "for=1.2.3.4", "Accept", "*/*"],
        ...["X-Forwarded-For", settled.forwardedFor],
      ]);
    }
  });

  it("an address next to a trusted one is not trusted", () => {
    expect(settledHeaders(sent, "192.0.2.11", trusted).fromProxy).toBe(false);
    expect(settledHeaders(sent, "11.0.0.1", trusted).fromProxy).toBe(false);
    expect(settledHeaders(sent, "fe00::1", trusted).fromProxy).toBe(false);
  });

  it("a proxy that sent no X-Forwarded-For leaves only its own address; with no peer there is none", () => {
    expect(settledHeaders(["Host", "h"], "10.0.0.1", trusted).forwardedFor).toBe("10.0.0.1");
    expect(settledHeaders(sent, undefined, trusted)).toEqual({
      fromProxy: false,
      forwardedFor: undefined,
      rawHeaders: ["Host", "versus.local", "Accept", "*/*"],
    });
  });

  it("without any trusted proxy nobody's forwarding headers count", () => {
    expect(settledHeaders(sent, "10.1.2.3", trustedProxyList([]))).toMatchObject({ fromProxy: false, forwardedFor: "10.1.2.3" });
  });
});
