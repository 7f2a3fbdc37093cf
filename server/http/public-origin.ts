// Where people, CLIs and agents reach this server: the one rule behind every link Versus shows
// or returns (pages, REST answers, the setup link), the origins a browser write may come from,
// and the base URL sign-in checks.
//
// VERSUS_PUBLIC_URL wins when set. Otherwise the request says where it was sent: its Host header,
// over http (`next start` serves http only). X-Forwarded-Host and X-Forwarded-Proto are believed
// only with VERSUS_TRUSTED_PROXIES: without a proxy in front, any client can send them, and
// Next.js passes what a client sent on to route handlers unchanged.
import { env } from "../core/env";

interface HeaderSource {
  get(name: string): string | null;
}

/** Whether X-Forwarded-* headers come from a proxy Versus was told to trust. */
export function trustsProxies(): boolean {
  return env.VERSUS_TRUSTED_PROXIES.length > 0;
}

/**
 * The origin links should use: VERSUS_PUBLIC_URL, else the one the request was sent to. A request
 * without a Host header (HTTP/1.0) falls back to its URL's origin when the caller has one.
 */
export function publicOrigin(headers: HeaderSource, requestUrl?: string): string {
  return env.VERSUS_PUBLIC_URL ?? requestOrigin(headers) ?? (requestUrl ? new URL(requestUrl).origin : defaultPublicOrigin());
}

/** The origin the client sent the request to, if its headers name a valid one. */
export function requestOrigin(headers: HeaderSource): string | undefined {
  if (trustsProxies()) {
    const proto = nearestHop(headers.get("x-forwarded-proto"));
    const host = nearestHop(headers.get("x-forwarded-host")) ?? headers.get("host");
    const origin = originOf(proto === "https" || proto === "http" ? proto : "http", host);
    if (origin) return origin;
  }
  return originOf("http", headers.get("host"));
}

/** Where Versus is reached when there is no request to ask (start-up, `versus admin`). */
export function defaultPublicOrigin(): string {
  return env.VERSUS_PUBLIC_URL ?? `http://localhost:${env.PORT}`;
}

/** Whether browsers reach Versus over https (for HSTS). */
export function servedOverHttps(headers: HeaderSource): boolean {
  return publicOrigin(headers).startsWith("https://");
}

/**
 * better-auth's baseURL. With VERSUS_PUBLIC_URL that one origin; without it, whatever host the
 * browser used on this machine (localhost, 127.0.0.1), so `npm start` works without setup.
 * better-auth checks the Origin of every sign-in and sign-out against it (CSRF).
 */
export function authBaseURL() {
  if (env.VERSUS_PUBLIC_URL) return env.VERSUS_PUBLIC_URL;
  return {
    allowedHosts: ["localhost", "localhost:*", "127.0.0.1", "127.0.0.1:*", "[::1]", "[::1]:*"],
    fallback: defaultPublicOrigin(),
    protocol: "http" as const,
  };
}

/** A proxy that appends to a forwarded header puts its own value last: take that one. */
function nearestHop(value: string | null): string | undefined {
  return value?.split(",").at(-1)?.trim() || undefined;
}

/** `proto://host` when `host` is a bare host[:port] (no user, path or other smuggled parts). */
function originOf(proto: "http" | "https", host: string | null | undefined): string | undefined {
  if (!host || !/^[a-z0-9.\-]+(:\d+)?$|^\[[0-9a-f:.]+\](:\d+)?$/i.test(host)) return undefined;
  try {
    return new URL(`${proto}://${host}`).origin;
  } catch {
    return undefined;
  }
}

/** The experiment page's address, as uploads and agents' completes answer it. */
export function experimentUrl(baseUrl: string, projectSlug: string, experimentSlug: string): string {
  return `${baseUrl}/p/${projectSlug}/e/${experimentSlug}`;
}
