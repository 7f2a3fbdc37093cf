// Signed-out visitors of a private page go to /sign-in (and come back after). This is only the
// quick, optimistic check of the cookie's presence; every tRPC procedure checks the session and
// the caller's role in the project for real.
import { getSessionCookie } from "better-auth/cookies";
import { NextResponse, type NextRequest } from "next/server";
import { COOKIE_PREFIX, isPublicPage } from "~/server/auth/auth-settings";

export function proxy(request: NextRequest) {
  const { pathname, search } = request.nextUrl;
  if (isPublicPage(pathname) || getSessionCookie(request, { cookiePrefix: COOKIE_PREFIX })) {
    // Pages that find the session expired redirect to /sign-in themselves; they need the path.
    const headers = new Headers(request.headers);
    headers.set("x-versus-path", pathname + search);
    return NextResponse.next({ request: { headers } });
  }
  const signIn = new URL("/sign-in", request.url);
  if (pathname !== "/") signIn.searchParams.set("next", pathname + search);
  return NextResponse.redirect(signIn);
}

export const config = {
  // Pages only: API routes, Next's assets and files with an extension answer for themselves.
  matcher: ["/((?!api/|_next/|.*\\.[a-z0-9]+$).*)"],
};
