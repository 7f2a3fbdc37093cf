// Who is calling: the signed-in user behind a request's session cookie, or null.
import { auth } from "./auth";

export interface SessionUser {
  id: string;
  email: string;
  name: string;
}

export async function getSessionUser(headers: Headers): Promise<SessionUser | null> {
  // No cookie, no database round trip.
  if (!headers.get("cookie")) return null;
  const session = await auth.api.getSession({ headers });
  if (!session) return null;
  return { id: session.user.id, email: session.user.email, name: session.user.name };
}
