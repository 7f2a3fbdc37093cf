// tRPC wiring, once (create-t3-app style): context, error formatter, procedure tiers.
// Procedures stay thin: parse input with the shared Zod schema, call one service.
import { initTRPC, TRPCError } from "@trpc/server";
import superjson from "superjson";
import { ZodError } from "zod";
import { projectMembership, requireRole, type MemberRole, type ProjectAccess } from "../access/project-access";
import { getSessionUser, type SessionUser } from "../auth/session";
import { db, type Db } from "../db/client";
import { DATABASE_UNAVAILABLE_DIGEST } from "../http/database-unavailable-wording";
import { DATABASE_RETRY_AFTER_SECONDS, databaseIsUnavailable, databaseUnavailableError, isDatabaseUnavailable } from "../db/unavailable";
import { AppError, badInput, INTERNAL_ERROR_MESSAGE, type AppErrorCode, type FieldIssue } from "../core/errors";
import { ZProjectRef } from "../schemas/project";
import { unstorableIssues } from "../schemas/storable";
import { fieldIssuesOf } from "../schemas/validation";

export interface TRPCContext {
  db: Db;
  headers: Headers;
  /** The signed-in user from the session cookie; null when signed out. */
  user: SessionUser | null;
  /**
   * The caller's membership per project slug, looked up once per context (one page's or one
   * batch's request) however many of its queries name the project: a page calls eight.
   */
  memberships?: Map<string, Promise<ProjectAccess>>;
}

export async function createTRPCContext(options: { headers: Headers; db?: Db }): Promise<TRPCContext> {
  const database = options.db ?? db;
  try {
    return { db: database, headers: options.headers, user: await getSessionUser(options.headers), memberships: new Map() };
  } catch (error) {
    // Reading the session is the first database call of a signed-in request. better-auth
    // reports its failure without the cause: ask the database whether it is there.
    if (isDatabaseUnavailable(error) || (await databaseIsUnavailable(database))) throw trpcErrorOf(databaseUnavailableError(error));
    throw error;
  }
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
  UNAVAILABLE: "SERVICE_UNAVAILABLE",
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

const trpcErrorOf = (cause: AppError) => {
  const error = new TRPCError({ code: trpcCodeOf[cause.code], message: cause.message, cause });
  // A page that called the procedure fails with it: its error boundary can tell why (../http/database-unavailable-wording.ts).
  if (cause.code === "UNAVAILABLE") Object.assign(error, { digest: DATABASE_UNAVAILABLE_DIGEST });
  return error;
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
        ? `Invalid input — ${fieldIssuesOf(error.cause)
            .map((i) => `${i.path.join(".") || "input"}: ${i.message}`)
            .join("; ")}`
        : publicMessageOf(error);
    return { ...shape, message, data: { ...shape.data, stack: undefined, fieldIssues } };
  },
});

/**
 * Services throw AppError; give tRPC clients the matching tRPC code and keep the details. A
 * database that cannot be reached is SERVICE_UNAVAILABLE (with Retry-After: app/api/trpc), not
 * an internal error.
 */
const appErrors = t.middleware(async ({ next }) => {
  const result = await next();
  if (result.ok) return result;
  const cause = result.error.cause;
  if (cause instanceof AppError) throw trpcErrorOf(cause);
  if (isDatabaseUnavailable(cause)) throw trpcErrorOf(databaseUnavailableError(cause));
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

/**
 * The HTTP answer's headers: answers hold the project's data (queries are GETs), so the browser's
 * cache keeps none of them; while the database is away, when to come back (as the REST API says it).
 */
export function responseMeta({ errors }: { errors: TRPCError[] }) {
  const headers = new Headers({ "cache-control": "no-store" });
  if (errors.some((error) => error.code === "SERVICE_UNAVAILABLE")) headers.set("Retry-After", String(DATABASE_RETRY_AFTER_SECONDS));
  return { headers };
}

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
  authedProcedure.input(ZProjectRef).use(async ({ ctx, input, type, next }) => {
    // Queries share the context's look-up; a mutation (which may change who is a member) and
    // whatever follows it in its batch look again.
    if (type !== "query") ctx.memberships?.clear();
    const found = type === "query" ? ctx.memberships?.get(input.projectSlug) : undefined;
    const membership = found ?? projectMembership(ctx.db, ctx.user.id, input.projectSlug);
    if (type === "query" && !found) ctx.memberships?.set(input.projectSlug, membership);
    const access = await membership;
    requireRole(access, role);
    return next({ ctx: { ...ctx, access } });
  });
