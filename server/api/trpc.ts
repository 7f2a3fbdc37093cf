// tRPC wiring, once (create-t3-app style): context, error formatter, procedure tiers.
// Procedures stay thin: parse input with the shared Zod schema, call one service.
import { initTRPC, TRPCError } from "@trpc/server";
import superjson from "superjson";
import { ZodError } from "zod";
import { db, type Db } from "../db/client";
import { AppError, type AppErrorCode, type FieldIssue } from "../errors";
import { fieldIssuesOf } from "../schemas/validation";

export interface TRPCContext {
  db: Db;
  headers: Headers;
}

export function createTRPCContext(options: { headers: Headers; db?: Db }): TRPCContext {
  return { db: options.db ?? db, headers: options.headers };
}

const trpcCodeOf: Record<AppErrorCode, TRPCError["code"]> = {
  BAD_REQUEST: "BAD_REQUEST",
  UNAUTHORIZED: "UNAUTHORIZED",
  FORBIDDEN: "FORBIDDEN",
  NOT_FOUND: "NOT_FOUND",
  CONFLICT: "CONFLICT",
  PAYLOAD_TOO_LARGE: "PAYLOAD_TOO_LARGE",
  UNPROCESSABLE: "UNPROCESSABLE_CONTENT",
  INTERNAL: "INTERNAL_SERVER_ERROR",
};

const t = initTRPC.context<TRPCContext>().create({
  transformer: superjson,
  errorFormatter({ shape, error }) {
    // Field-level problems travel in `data.fieldIssues`, whether Zod (input parsing) or a
    // service (e.g. a taken slug) found them, so forms can put each message beside its field.
    let fieldIssues: FieldIssue[] | undefined;
    if (error.cause instanceof ZodError) fieldIssues = fieldIssuesOf(error.cause);
    else if (error.cause instanceof AppError && error.cause.fieldIssues.length) fieldIssues = error.cause.fieldIssues;
    const message =
      error.cause instanceof ZodError
        ? `Invalid input — ${fieldIssuesOf(error.cause).map((i) => `${i.path.join(".") || "input"}: ${i.message}`).join("; ")}`
        : shape.message;
    return { ...shape, message, data: { ...shape.data, stack: undefined, fieldIssues } };
  },
});

/** Services throw AppError; give tRPC clients the matching tRPC code and keep the details. */
const appErrors = t.middleware(async ({ next }) => {
  const result = await next();
  if (!result.ok && result.error.cause instanceof AppError) {
    const cause = result.error.cause;
    throw new TRPCError({ code: trpcCodeOf[cause.code], message: cause.message, cause });
  }
  return result;
});

export const createCallerFactory = t.createCallerFactory;
export const createTRPCRouter = t.router;

/** Anyone may call. (Signed-in and role-checked tiers arrive with accounts.) */
export const publicProcedure = t.procedure.use(appErrors);
