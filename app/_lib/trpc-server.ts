// tRPC for React Server Components: the same procedures as the browser uses, called in-process.
import "server-only";
import { headers } from "next/headers";
import { notFound, redirect } from "next/navigation";
import { TRPCError } from "@trpc/server";
import { cache } from "react";
import { createCaller } from "~/server/api/root";
import { onOneConnectionOf } from "~/server/api/page-reads";
import { createTRPCContext } from "~/server/api/trpc";

// One context per request: the session is looked up once, however many procedures the layout and
// the page call (a context function would be run again for each call).
const requestContext = cache(async () => createTRPCContext({ headers: await headers() }));

export const api = cache(async () => createCaller(await requestContext()));

/** Who is signed in for this request (null when signed out), from the same context. */
export async function sessionUser() {
  return (await requestContext()).user;
}

/**
 * Runs a page's reads on one pooled connection however many it makes at once
 * (server/db/one-connection.ts), once the request's session is known (the layout reads it too, on
 * a connection of its own, and the two must not overlap).
 */
export async function onOnePooledConnection<T>(read: () => Promise<T>): Promise<T> {
  return onOneConnectionOf(await requestContext(), read);
}

/**
 * Runs a query for a page: NOT_FOUND becomes Next's 404 page — and so does BAD_REQUEST, an
 * address no project, experiment or link can have (a NUL or an over-long slug in a path segment)
 * — and a session that has expired (the cookie is there, the session is not) goes to sign-in and
 * back to this page after.
 */
export async function orNotFound<T>(query: Promise<T>): Promise<T> {
  try {
    return await query;
  } catch (error) {
    if (error instanceof TRPCError && (error.code === "NOT_FOUND" || error.code === "BAD_REQUEST")) notFound();
    if (error instanceof TRPCError && error.code === "UNAUTHORIZED") {
      const path = (await headers()).get("x-versus-path");
      redirect(path && path !== "/" ? `/sign-in?next=${encodeURIComponent(path)}` : "/sign-in");
    }
    throw error;
  }
}
