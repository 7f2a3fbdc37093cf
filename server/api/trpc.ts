// tRPC wiring, once (create-t3-app style): context, error formatter, procedure tiers.
// Procedures stay thin: parse input with the shared Zod schema, call one service.
import { initTRPC, TRPCError } from "@trpc/server";
import superjson from "superjson";
import { ZodError } from "zod";
import { requireProjectRole, type MemberRole } from "../access/project-access";
import { getSessionUser, type SessionUser } from "../auth/session";
import { db, type Db } from "../db/client";
import { AppError, badInput, INTERNAL_ERROR_MESSAGE, type AppErrorCode, type FieldIssue } from "../errors";
import { ZProjectRef } from "../schemas/project";
import { unstorableIssues } from "../schemas/storable";
import { fieldIssuesOf } from "../schemas/validation";

export interface TRPCContext {
  db: Db;
  headers: Headers;
  /** The signed-in user from the session cookie; null when signed out. */
  user: SessionUser | null;
}

export async function createTRPCContext(options: { headers: Headers; db?: Db }): Promise<TRPCContext> {
  return { db: options.db ?? db, headers: options.headers, user: await getSessionUser(options.headers) };
}

const trpcCodeOf: Record<AppErrorCode, TRPCError["code"]> = {
  BAD_REQUEST: "BAD_REQUEST",
  UNAUTHORIZED: "UNAUTHORIZED",
  FORBIDDEN: "FORBIDDEN",
  NOT_FOUND: "NOT_FOUND",
  METHOD_NOT_ALLOWED: "METHOD_NOT_SUPPORTED",
  CONFLICT: "CONFLICT",
  PAYLOAD_TOO_LARGE: "PAYLOAD_TOO_LARGE",
  UNSUPPORTED_MEDIA_TYPE: "UNSUPPORTED_MEDIA_TYPE",
  UNPROCESSABLE: "UNPROCESSABLE_CONTENT",
  INTERNAL: "INTERNAL_SERVER_ERROR",
};

/** An unexpected failure, as opposed to a refusal a service meant (AppError) or tRPC's own. */
export function isUnexpected(error: TRPCError): boolean {
  return error.code === "INTERNAL_SERVER_ERROR" && !(error.cause instanceof AppError);
}

/**
 * What a caller is told of an error: its message, except an unexpected failure's, which may name
 * hosts, queries or secrets; that goes to the server log, the caller gets what REST answers.
 */
export function publicMessageOf(error: TRPCError): string {
  return isUnexpected(error) ? INTERNAL_ERROR_MESSAGE : error.message;
}

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
        : publicMessageOf(error);
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

/**
 * Text no field can store (a NUL, a lone surrogate) and nesting beyond any real input are bad
 * input in every procedure, found before the procedure's own schema runs (../schemas/storable.ts).
 */
const storableInput = t.middleware(async ({ getRawInput, next }) => {
  const issues = unstorableIssues(await getRawInput());
  if (issues.length > 0) throw badInput(issues);
  return next();
});

export const createCallerFactory = t.createCallerFactory;
export const createTRPCRouter = t.router;

/** Anyone may call: the setup and invitation pages, before there is an account. */
export const publicProcedure = t.procedure.use(appErrors).use(storableInput);

/** A signed-in user. */
export const authedProcedure = publicProcedure.use(({ ctx, next }) => {
  if (!ctx.user) throw new TRPCError({ code: "UNAUTHORIZED", message: "Sign in to continue" });
  return next({ ctx: { ...ctx, user: ctx.user } });
});

/**
 * A member of the project named by `input.projectSlug` with at least `role`. Every procedure
 * that reads or changes a project's data is one of these; the services below then only look
 * inside that project.
 */
export const projectProcedure = (role: MemberRole) =>
  authedProcedure.input(ZProjectRef).use(async ({ ctx, input, next }) => {
    const access = await requireProjectRole(ctx.db, ctx.user.id, input.projectSlug, role);
    return next({ ctx: { ...ctx, access } });
  });
