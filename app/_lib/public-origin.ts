// The public origin (server/http/public-origin.ts) for a page being rendered: its request's headers.
import "server-only";
import { headers } from "next/headers";
import { publicOrigin as publicOriginOf } from "~/server/http/public-origin";

export async function publicOrigin(): Promise<string> {
  return publicOriginOf(await headers());
}
