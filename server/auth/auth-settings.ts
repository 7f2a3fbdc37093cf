// The settings of sign-in that other modules and tests need without building the auth instance.

/** A session lasts a week, renewed while it is used. */
export const SESSION_MAX_AGE_SECONDS = 7 * 24 * 60 * 60;

/** Password guesses from one address: at most 10 a minute. */
export const SIGN_IN_RATE_LIMIT = { window: 60, max: 10 };

/** Name of the session cookie (better-auth's "session_token" under our prefix). */
export const SESSION_COOKIE = "versus.session_token";

/**
 * Where Versus is reached. With VERSUS_PUBLIC_URL that one origin; without it, whatever host the
 * browser used on this machine (localhost, 127.0.0.1), so `npm start` works without setup.
 * better-auth checks the Origin of every sign-in and sign-out against it (CSRF).
 */
export function authBaseURL(env: { VERSUS_PUBLIC_URL?: string | undefined; PORT?: number | undefined }) {
  if (env.VERSUS_PUBLIC_URL) return env.VERSUS_PUBLIC_URL;
  return {
    allowedHosts: ["localhost", "localhost:*", "127.0.0.1", "127.0.0.1:*", "[::1]", "[::1]:*"],
    fallback: `http://localhost:${env.PORT ?? 3000}`,
    protocol: "http" as const,
  };
}
