// What a failed better-auth sign-in tells the person, wherever they sign in (the sign-in page, an
// invitation for an existing account).

export function signInErrorMessage(
  error: { status?: number; message?: string },
  wrongCredentials = "That email and password do not match an account.",
): string {
  // The account lock explains itself; the per-address limit's own message is terse.
  if (error.status === 429 && error.message?.includes("this account")) return error.message;
  if (error.status === 429) return "Too many sign-in attempts from this address. Wait a minute, then try again.";
  if (error.status === 401) return wrongCredentials;
  return error.message || "Sign-in failed";
}
