// A page's in-process tRPC calls, made at once, on one pooled connection of the request context's
// database (server/db/one-connection.ts): the pages reach the database only through tRPC.
import { onOneConnection } from "../db/one-connection";
import type { TRPCContext } from "./trpc";

export function onOneConnectionOf<T>(context: TRPCContext, read: () => Promise<T>): Promise<T> {
  return onOneConnection(context.db, read);
}
