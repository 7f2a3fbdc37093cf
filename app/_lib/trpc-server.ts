// tRPC for React Server Components: the same procedures as the browser uses, called in-process.
import "server-only";
import { headers } from "next/headers";
import { notFound } from "next/navigation";
import { TRPCError } from "@trpc/server";
import { cache } from "react";
import { createCaller } from "~/server/api/root";
import { createTRPCContext } from "~/server/api/trpc";

export const api = cache(async () => createCaller(async () => createTRPCContext({ headers: await headers() })));

/** Runs a query and turns NOT_FOUND into Next's 404 page. */
export async function orNotFound<T>(query: Promise<T>): Promise<T> {
  try {
    return await query;
  } catch (error) {
    if (error instanceof TRPCError && error.code === "NOT_FOUND") notFound();
    throw error;
  }
}
