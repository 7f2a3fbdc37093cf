// better-auth's endpoints (sign-in, sign-out, session) while the database is away. better-auth
// answers a failed query with a 500 of its own or lets it throw, and loses the cause on the way;
// these answers are then the 503 with Retry-After that every other route gives, in better-auth's
// own error shape ({"code", "message"}: the sign-in form shows the message).
import { db } from "../db/client";
import { DATABASE_RETRY_AFTER_SECONDS, databaseIsUnavailable, databaseUnavailableError, isDatabaseUnavailable } from "../db/unavailable";

type Handler = (req: Request) => Promise<Response>;

export function answeringDatabaseOutages(handler: Handler): Handler {
  return async (req) => {
    let response: Response;
    try {
      response = await handler(req);
    } catch (error) {
      if (isDatabaseUnavailable(error) || (await databaseIsUnavailable(db))) return unavailable(error);
      throw error;
    }
    // Whether a 500 was the database's doing is asked of the database itself.
    if (response.status >= 500 && (await databaseIsUnavailable(db))) return unavailable(new Error(`better-auth answered ${response.status}`));
    return response;
  };
}

function unavailable(cause: unknown): Response {
  const { code, message } = databaseUnavailableError(cause);
  return Response.json({ code, message }, { status: 503, headers: { "Retry-After": String(DATABASE_RETRY_AFTER_SECONDS), "Cache-Control": "no-store" } });
}
