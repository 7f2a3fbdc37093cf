// The settings of sign-in that other modules and tests need without building the auth instance.

/** A session lasts a week, renewed while it is used. */
export const SESSION_MAX_AGE_SECONDS = 7 * 24 * 60 * 60;

/** Password guesses from one address (see clientAddressOptions in auth.ts): at most 10 a minute. */
export const SIGN_IN_RATE_LIMIT = { window: 60, max: 10 };

/** better-auth names its cookies "<prefix>.session_token" etc. */
export const COOKIE_PREFIX = "versus";

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
