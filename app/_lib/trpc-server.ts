// tRPC for React Server Components: the same procedures as the browser uses, called in-process.
import "server-only";
import { headers } from "next/headers";
import { notFound, redirect } from "next/navigation";
import { TRPCError } from "@trpc/server";
import { cache } from "react";
import { createCaller } from "~/server/api/root";
import { createTRPCContext } from "~/server/api/trpc";

export const api = cache(async () => createCaller(async () => createTRPCContext({ headers: await headers() })));

/**
 * Runs a query for a page: NOT_FOUND becomes Next's 404 page, and a session that has expired
 * (the cookie is there, the session is not) goes to sign-in and back to this page after.
 */
export async function orNotFound<T>(query: Promise<T>): Promise<T> {
  try {
    return await query;
  } catch (error) {
    if (error instanceof TRPCError && error.code === "NOT_FOUND") notFound();
    if (error instanceof TRPCError && error.code === "UNAUTHORIZED") {
      const path = (await headers()).get("x-versus-path");
      redirect(path && path !== "/" ? `/sign-in?next=${encodeURIComponent(path)}` : "/sign-in");
    }
    throw error;
  }
}
