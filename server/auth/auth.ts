// Sign-in, sessions and their cookies: better-auth, on the same Prisma client as everything else.
// Email and password only. Nobody signs themselves up: accounts are made by the first-owner setup
// link and by project invitations (server/auth/installation.ts, server/projects/invitations.ts), which write the
// user and its scrypt-hashed credential in the same transaction as the membership.
import { betterAuth, type BetterAuthOptions } from "better-auth";
import { prismaAdapter } from "better-auth/adapters/prisma";
import { APIError, createAuthMiddleware } from "better-auth/api";
import { db } from "../db/client";
import { env, requiredEnv } from "../core/env";
import { authBaseURL, trustsProxies } from "../http/public-origin";
import { clearFailedSignIns, lockedUntil, recordFailedSignIn } from "./account-lockout";
import { COOKIE_PREFIX, SESSION_ABSOLUTE_MAX_AGE_SECONDS, SESSION_MAX_AGE_SECONDS, SIGN_IN_RATE_LIMIT, sessionCookieName } from "./auth-settings";
import { MIN_PASSWORD_LENGTH, MAX_PASSWORD_LENGTH } from "../schemas/auth";
import { unstorableIssues } from "../schemas/storable";
import { badInput } from "../core/errors";
import { passwordStrength, weakPasswordMessage } from "./password-strength";

export const auth = betterAuth(authOptions());

export type Auth = typeof auth;

/** The options, from the environment as it is now (tests build instances with other settings). */
export function authOptions() {
  const https = env.VERSUS_PUBLIC_URL?.startsWith("https://") ?? false;
  return {
    appName: "Versus",
    secret: requiredEnv("BETTER_AUTH_SECRET"),
    baseURL: authBaseURL(),
    basePath: "/api/auth",
    database: prismaAdapter(db, { provider: "postgresql", transaction: true }),
    // Names and sign-in emails change through the account router (server/auth/account.ts),
    // which checks them like every other input and asks for the password before an email
    // changes; better-auth's own endpoints would take a blank name, or a new email unconfirmed.
    disabledPaths: ["/update-user", "/change-email"],
    emailAndPassword: {
      enabled: true,
      disableSignUp: true,
      minPasswordLength: MIN_PASSWORD_LENGTH,
      maxPasswordLength: MAX_PASSWORD_LENGTH,
    },
    session: {
      expiresIn: SESSION_MAX_AGE_SECONDS,
      // Extend an active session at most once a day rather than on every request.
      updateAge: 24 * 60 * 60,
    },
    rateLimit: {
      // On in every mode (better-auth turns it off outside production by default): the limit is
      // part of what sign-in promises, and tests check it.
      enabled: true,
      storage: "database",
      window: 60,
      max: 100,
      customRules: { "/sign-in/email": SIGN_IN_RATE_LIMIT },
    },
    hooks: {
      before: createAuthMiddleware(async (ctx) => {
        // Text PostgreSQL cannot hold is bad input here as in every other request, not a 500 from
        // the first query that carries it (../schemas/storable.ts).
        const issues = unstorableIssues({ ...(ctx.query ?? {}), ...(isObject(ctx.body) ? ctx.body : {}) });
        if (issues.length > 0) throw new APIError("BAD_REQUEST", { code: "INVALID_INPUT", message: badInput(issues).message });
        if (ctx.path === "/change-password") refuseWeakPassword(ctx.body);
        if (ctx.path !== "/sign-in/email") return;
        const until = await lockedUntil(db, signInEmailOf(ctx.body));
        if (until) {
          const minutes = Math.ceil((until.getTime() - Date.now()) / 60_000);
          throw new APIError("TOO_MANY_REQUESTS", {
            message: `Too many failed sign-ins for this account. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}, or ask whoever runs Versus to reset the password.`,
          });
        }
      }),
      after: createAuthMiddleware(async (ctx) => {
        if (ctx.path !== "/sign-in/email") return;
        const email = signInEmailOf(ctx.body);
        if (!email) return;
        if (ctx.context.returned instanceof APIError) await recordFailedSignIn(db, email);
        else await clearFailedSignIns(db, email);
      }),
    },
    databaseHooks: {
      session: {
        update: {
          // Renewal never carries a session past SESSION_ABSOLUTE_MAX_AGE_SECONDS after its sign-in.
          // (Renewal happens while reading the session, which is then the request's own.)
          before: async (session, ctx) => {
            const signedInAt = ctx?.context.session?.session.createdAt;
            if (!signedInAt || !(session.expiresAt instanceof Date)) return;
            const limit = new Date(new Date(signedInAt).getTime() + SESSION_ABSOLUTE_MAX_AGE_SECONDS * 1000);
            if (session.expiresAt > limit) return { data: { ...session, expiresAt: limit } };
          },
        },
      },
    },
    advanced: {
      // Secure cookies whenever the public URL is https; on plain http (localhost) browsers drop
      // them. Set per cookie rather than with useSecureCookies, which would put __Secure- before
      // the session cookie's own __Host- name.
      useSecureCookies: false,
      defaultCookieAttributes: { secure: https },
      cookies: { session_token: { name: sessionCookieName(https) } },
      cookiePrefix: COOKIE_PREFIX,
      database: { generateId: false },
      // The base URL follows X-Forwarded-Host/-Proto only from trusted proxies (server/http/public-origin.ts).
      trustedProxyHeaders: trustsProxies(),
      ipAddress: clientAddressOptions(),
    },
    telemetry: { enabled: false },
  } satisfies BetterAuthOptions;
}

/**
 * Which address a sign-in comes from, for the per-address limit. Route handlers never see the
 * connection itself, only X-Forwarded-For, which the HTTP server in front of Next.js has settled
 * from the connection (scripts/lib/forwarded-headers.ts): the peer's address alone, or, from a
 * trusted proxy, the chain it forwarded with the proxy appended. With VERSUS_TRUSTED_PROXIES the
 * chain is read from the right, skipping those proxies: the first other address is the client.
 * Without them only a single address counts (a chain means a proxy nobody vouched for; such
 * requests share one bucket).
 */
function clientAddressOptions() {
  const trustedProxies = env.VERSUS_TRUSTED_PROXIES;
  return { ipAddressHeaders: ["x-forwarded-for"], ...(trustedProxies.length ? { trustedProxies } : {}) };
}

/** A new password too easy to guess is refused as account creation refuses it (credentials.ts). */
function refuseWeakPassword(body: unknown): void {
  const newPassword = isObject(body) && typeof body.newPassword === "string" ? body.newPassword : undefined;
  if (newPassword === undefined) return;
  const strength = passwordStrength(newPassword);
  if (!strength.acceptable) throw new APIError("BAD_REQUEST", { code: "PASSWORD_TOO_WEAK", message: weakPasswordMessage(strength) });
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

function signInEmailOf(body: unknown): string {
  const email = (body as { email?: unknown } | undefined)?.email;
  return typeof email === "string" ? email.trim().toLowerCase() : "";
}
