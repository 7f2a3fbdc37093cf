// The settings of sign-in that other modules and tests need without building the auth instance.

/** A session lasts a week, renewed while it is used… */
export const SESSION_MAX_AGE_SECONDS = 7 * 24 * 60 * 60;

/** …but however much it is used, it ends this long after its sign-in: then one signs in again. */
export const SESSION_ABSOLUTE_MAX_AGE_SECONDS = 30 * 24 * 60 * 60;

/** Password guesses from one address (see clientAddressOptions in auth.ts): at most 10 a minute. */
export const SIGN_IN_RATE_LIMIT = { window: 60, max: 10 };

/** better-auth names its cookies "<prefix>.session_token" etc. */
export const COOKIE_PREFIX = "versus";

/**
 * The session cookie's name. Over https it carries the __Host- prefix: browsers then keep it only
 * if it is Secure, has Path=/ and no Domain, so no other host (a sibling subdomain) can set or
 * read it. Over plain http (localhost) a Secure cookie would be dropped, so no prefix.
 */
export function sessionCookieName(https: boolean): string {
  return `${https ? "__Host-" : ""}${COOKIE_PREFIX}.session_token`;
}

const SESSION_COOKIE_NAMES = new Set([sessionCookieName(true), sessionCookieName(false)]);

/** Whether the request carries a session cookie at all (the page guard's quick check; not its validity). */
export function hasSessionCookie(headers: Headers): boolean {
  const cookies = headers.get("cookie") ?? "";
  return cookies.split(";").some((pair) => SESSION_COOKIE_NAMES.has(pair.split("=", 1)[0]!.trim()));
}

/**
 * Pages anyone may open without signing in: signing in itself, the first owner's setup link, an
 * invitation, a shared comparison (and its preview image), and the API docs. Everything else
 * sends a signed-out visitor to /sign-in. (API routes answer 401 themselves.)
 */
const PUBLIC_PAGES = ["/sign-in", "/api-docs"];
const PUBLIC_PREFIXES = ["/setup/", "/invite/", "/s/"];

export function isPublicPage(pathname: string): boolean {
  return PUBLIC_PAGES.includes(pathname) || PUBLIC_PREFIXES.some((prefix) => pathname.startsWith(prefix));
}
