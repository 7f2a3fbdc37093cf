// Where people, CLIs and agents reach this server, for the commands pages show: VERSUS_PUBLIC_URL
// when set (behind a proxy), else the origin the browser used.
import "server-only";
import { headers } from "next/headers";
import { env } from "~/server/env";

export async function publicOrigin(): Promise<string> {
  if (env.VERSUS_PUBLIC_URL) return env.VERSUS_PUBLIC_URL.replace(/\/$/, "");
  const requestHeaders = await headers();
  const host = requestHeaders.get("x-forwarded-host") ?? requestHeaders.get("host") ?? "localhost:3000";
  return `${requestHeaders.get("x-forwarded-proto") ?? "http"}://${host}`;
}
