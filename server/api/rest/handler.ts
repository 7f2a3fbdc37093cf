// The REST API's one wrapper: authenticates the project API key, runs the handler, and turns
// every error into {"error": {"code", "message", "details"}} with the right HTTP status.
import { ZodError } from "zod";
import { db, type Db } from "../../db/client";
import { DATABASE_RETRY_AFTER_SECONDS, databaseUnavailableError, isDatabaseUnavailable } from "../../db/unavailable";
import { env } from "../../core/env";
import { AppError, badInput, INTERNAL_ERROR_MESSAGE } from "../../core/errors";
import { publicOrigin } from "../../http/public-origin";
import { fieldIssuesOf } from "../../schemas/validation";
import { authenticateApiKey, type ApiKeyPrincipal } from "../../projects/api-keys";
import { apiKeyCache } from "../../projects/api-key-cache";
import { jsonAnswer } from "./bodies-beside";
import { readBody } from "./body";

export interface RestContext<P = ApiKeyPrincipal> {
  req: Request;
  url: URL;
  db: Db;
  principal: P;
  /** The body (size-limited), read on demand. */
  body(): Promise<{ bytes: Buffer }>;
  /** Absolute origin for links in responses (not req.url: Next.js builds that from the address it listens on). */
  baseUrl: string;
}

/** A project API key's call: results, imports, comparisons. */
export function restRoute(handler: (ctx: RestContext) => Promise<Response>) {
  // Keys this process has read before are not read again (../../projects/api-key-cache.ts).
  return authenticatedRoute((db, authorization) => authenticateApiKey(db, authorization, apiKeyCache()), handler);
}

/**
 * Every REST call: authenticates the caller with `authenticate` (which throws a 401 AppError),
 * runs the handler, and answers every error with the error body. Agents use it with their own
 * credentials (agent-handler.ts).
 */
export function authenticatedRoute<P>(authenticate: (db: Db, authorization: string | null) => Promise<P>, handler: (ctx: RestContext<P>) => Promise<Response>) {
  return async (req: Request): Promise<Response> => {
    try {
      const principal = await authenticate(db, req.headers.get("authorization"));
      const url = new URL(req.url);
      let body: { bytes: Buffer } | undefined;
      return await handler({
        req,
        url,
        db,
        principal,
        baseUrl: publicOrigin(req.headers, req.url),
        body: async () => {
          body ??= { bytes: await readBody(req, env.VERSUS_MAX_BODY_BYTES) };
          return body;
        },
      });
    } catch (error) {
      return errorResponse(error);
    }
  };
}

export function errorResponse(error: unknown): Response {
  const appError =
    error instanceof AppError
      ? error
      : error instanceof ZodError
        ? badInput(fieldIssuesOf(error))
        : isDatabaseUnavailable(error)
          ? databaseUnavailableError(error)
          : undefined;
  if (appError) return Response.json(appError.toJSON(), { status: appError.httpStatus, headers: errorHeaders(appError) });
  console.error("REST request failed:", error);
  return Response.json({ error: { code: "INTERNAL", message: INTERNAL_ERROR_MESSAGE } }, { status: 500 });
}

/** Who to authenticate as after a 401; when to come back after a 503. */
function errorHeaders(error: AppError): Record<string, string> {
  if (error.code === "UNAUTHORIZED") return { "WWW-Authenticate": 'Bearer realm="versus"' };
  if (error.code === "UNAVAILABLE") return { "Retry-After": String(DATABASE_RETRY_AFTER_SECONDS) };
  return {};
}

/** A JSON answer (as Response.json's), whose text the server in front sends as it is (./bodies-beside.ts). */
export const json = (body: unknown, status = 200) => jsonAnswer(body, status);
