// Runs before every page (not API routes, whose upload bodies must not be buffered here).
// Signed-out visitors of a private page go to /sign-in (and come back after). This is only the
// quick, optimistic check of the cookie's presence; every tRPC procedure checks the session and
// the caller's role in the project for real. Every page answer also gets its security headers
// (server/http/security-headers.ts).
import { NextResponse, type NextRequest } from "next/server";
import { hasSessionCookie, isPublicPage } from "~/server/auth/auth-settings";
import { servedOverHttps } from "~/server/http/public-origin";
import { HSTS, newNonce, pageContentSecurityPolicy } from "~/server/http/security-headers";

export function proxy(request: NextRequest) {
  const { pathname, search } = request.nextUrl;
  const https = servedOverHttps(request.headers);
  const csp = pageContentSecurityPolicy(newNonce(), { https, development: process.env.NODE_ENV === "development" });
  let response: NextResponse;
  if (isPublicPage(pathname) || hasSessionCookie(request.headers)) {
    const headers = new Headers(request.headers);
    // Pages that find the session expired redirect to /sign-in themselves; they need the path.
    headers.set("x-versus-path", pathname + search);
    // Next.js takes the nonce for its scripts from the request's policy.
    headers.set("content-security-policy", csp);
    response = NextResponse.next({ request: { headers } });
  } else {
    const signIn = new URL("/sign-in", request.url);
    if (pathname !== "/") signIn.searchParams.set("next", pathname + search);
    response = NextResponse.redirect(signIn);
  }
  response.headers.set("content-security-policy", csp);
  if (https) response.headers.set("strict-transport-security", HSTS);
  return response;
}

export const config = {
  // Pages only: API routes, Next's assets and files with an extension answer for themselves
  // (next.config.js gives them their headers).
  matcher: ["/((?!api/|_next/|.*\\.[a-z0-9]+$).*)"],
};
