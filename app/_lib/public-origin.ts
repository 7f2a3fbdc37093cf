// The origin people reach Versus at, for absolute URLs in pages (share links, preview images):
// VERSUS_PUBLIC_URL when set (behind a proxy), else the Host the request came in on.
import "server-only";
import { headers } from "next/headers";
import { env } from "~/server/env";

export async function publicOrigin(): Promise<string> {
  if (env.VERSUS_PUBLIC_URL) return env.VERSUS_PUBLIC_URL.replace(/\/$/, "");
  const requestHeaders = await headers();
  const host = requestHeaders.get("x-forwarded-host") ?? requestHeaders.get("host") ?? "localhost:3000";
  return `${requestHeaders.get("x-forwarded-proto") ?? "http"}://${host}`;
}
