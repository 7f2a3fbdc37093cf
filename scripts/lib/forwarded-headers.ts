// Who the client is and where it sent its request, as the rest of the server reads them: the
// per-address sign-in limit keys on X-Forwarded-For (server/auth/auth.ts), links and HSTS follow
// X-Forwarded-Host and -Proto (server/http/public-origin.ts). Route handlers never see the
// connection, only headers, and any client can send these headers itself; Next.js fills them in
// only when they are missing. So the HTTP server in front of Next.js (scripts/serve.ts) settles
// them for every request from the connection's peer, before anything reads them:
// - from a proxy VERSUS_TRUSTED_PROXIES names, they are kept, and the proxy's own address is
//   appended to X-Forwarded-For (the chain is then read from the right, past the proxies);
// - from anyone else, X-Forwarded-For is the peer's address alone and the other forwarding
//   headers are dropped, so Next.js fills them in from the connection.
import type { IncomingMessage } from "node:http";
import net from "node:net";

/** Headers that say where a request was sent; only a trusted proxy's are believed. */
const FORWARDING = new Set(["x-forwarded-host", "x-forwarded-proto", "x-forwarded-port", "forwarded", "x-real-ip"]);
const FORWARDED_FOR = "x-forwarded-for";

/** The proxies to trust (VERSUS_TRUSTED_PROXIES: addresses and CIDR ranges, already validated). */
export function trustedProxyList(entries: readonly string[]): net.BlockList {
  const list = new net.BlockList();
  for (const entry of entries) {
    const [address, prefix] = entry.split("/") as [string, string | undefined];
    const family = net.isIPv6(address) ? "ipv6" : "ipv4";
    if (prefix === undefined) list.addAddress(address, family);
    else list.addSubnet(address, Number(prefix), family);
  }
  return list;
}

export interface SettledHeaders {
  /** The raw headers (name, value, name, value…) as the rest of the server may read them. */
  rawHeaders: string[];
  /** X-Forwarded-For as it now reads: the trusted chain and the peer, or the peer alone. */
  forwardedFor: string | undefined;
  /** Whether the peer is a trusted proxy, whose other forwarding headers are kept. */
  fromProxy: boolean;
}

/** What a request's headers become, given the address of the connection's peer (undefined once the socket is gone). */
export function settledHeaders(rawHeaders: readonly string[], peer: string | undefined, trusted: net.BlockList): SettledHeaders {
  const fromProxy = peer !== undefined && trusted.check(peer, net.isIPv6(peer) ? "ipv6" : "ipv4");
  const kept: string[] = [];
  const sent: string[] = [];
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i] as string;
    const value = rawHeaders[i + 1] as string;
    const lower = name.toLowerCase();
    if (lower === FORWARDED_FOR) sent.push(value);
    else if (fromProxy || !FORWARDING.has(lower)) kept.push(name, value);
  }
  const forwardedFor = [...(fromProxy ? sent : []), ...(peer === undefined ? [] : [peer])].join(", ") || undefined;
  if (forwardedFor !== undefined) kept.push("X-Forwarded-For", forwardedFor);
  return { rawHeaders: kept, forwardedFor, fromProxy };
}

/** Settles `req`'s forwarding headers in place, in its raw headers and its parsed ones alike. */
export function settleForwardedHeaders(req: IncomingMessage, trusted: net.BlockList): void {
  const settled = settledHeaders(req.rawHeaders, req.socket.remoteAddress, trusted);
  // (Node parses the raw headers on first use of req.headers: that happens here, before they change.)
  const headers = req.headers;
  if (!settled.fromProxy) for (const name of FORWARDING) delete headers[name];
  if (settled.forwardedFor === undefined) delete headers[FORWARDED_FOR];
  else headers[FORWARDED_FOR] = settled.forwardedFor;
  req.rawHeaders = settled.rawHeaders;
}
