// The session cookie and the session behind it, through better-auth's own sign-in handler on the
// real database: what the cookie says (HttpOnly, SameSite, Path, Secure and the __Host- prefix
// when Versus is served over https), that every sign-in makes a new unguessable token, that the
// cookie is what the page guard looks for, and that using a session keeps it alive for at most
// SESSION_ABSOLUTE_MAX_AGE_SECONDS after its sign-in.
import crypto from "node:crypto";
import { betterAuth } from "better-auth";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { authOptions } from "~/server/auth/auth";
import { hasSessionCookie, SESSION_ABSOLUTE_MAX_AGE_SECONDS, SESSION_MAX_AGE_SECONDS } from "~/server/auth/auth-settings";
import { createUserWithPassword, prepareNewAccount } from "~/server/auth/credentials";
import { db } from "~/server/db/client";

afterEach(() => {
  delete process.env.VERSUS_PUBLIC_URL;
});
afterAll(() => db.$disconnect());

async function account() {
  const email = `cookie-${crypto.randomBytes(4).toString("hex")}@example.test`;
  const password = `pw-${crypto.randomBytes(12).toString("base64url")}`;
  const newAccount = await prepareNewAccount({ name: "Cookie", email, password });
  const user = await db.$transaction((tx) => createUserWithPassword(tx, newAccount));
  return { id: user.id, email, password };
}

interface SetCookie {
  name: string;
  value: string;
  attributes: Map<string, string>;
}

/** The session cookie a sign-in answer sets, with its attributes (names lower-cased). */
async function signIn(origin: string, credentials: { email: string; password: string }, cookie?: string): Promise<SetCookie> {
  const instance = betterAuth(authOptions());
  const response = await instance.handler(
    new Request(`${origin}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin, "x-forwarded-for": `192.0.2.${crypto.randomInt(1, 254)}`, ...(cookie ? { cookie } : {}) },
      body: JSON.stringify(credentials),
    }),
  );
  expect(response.status, await response.clone().text()).toBe(200);
  const session = response.headers.getSetCookie().find((line) => /^[^=]*session_token=/.test(line));
  if (!session) throw new Error(`no session cookie in ${response.headers.getSetCookie().join(" | ")}`);
  const [pair, ...attributes] = session.split(";").map((part) => part.trim());
  const [name, value] = pair!.split(/=(.*)/s) as [string, string];
  return {
    name,
    value: decodeURIComponent(value),
    attributes: new Map(attributes.map((part) => [part.split("=")[0]!.toLowerCase(), part.split("=")[1] ?? ""])),
  };
}

const tokenOf = (cookie: SetCookie) => cookie.value.split(".")[0]!;

describe("the session cookie", () => {
  it("over http: HttpOnly, SameSite=Lax, Path=/, no Domain, a week; not Secure (browsers would drop it)", async () => {
    const cookie = await signIn("http://localhost:3000", await account());
    expect(cookie.name).toBe("versus.session_token");
    expect(cookie.attributes.has("httponly")).toBe(true);
    expect(cookie.attributes.get("samesite")?.toLowerCase()).toBe("lax");
    expect(cookie.attributes.get("path")).toBe("/");
    expect(cookie.attributes.has("domain")).toBe(false);
    expect(cookie.attributes.get("max-age")).toBe(String(SESSION_MAX_AGE_SECONDS));
    expect(cookie.attributes.has("secure")).toBe(false);
  });

  it("over https: also Secure, and named __Host- so only this exact host ever gets or sets it", async () => {
    process.env.VERSUS_PUBLIC_URL = "https://versus.example.com";
    const credentials = await account();
    const cookie = await signIn("https://versus.example.com", credentials);
    expect(cookie.name).toBe("__Host-versus.session_token");
    expect(cookie.attributes.has("secure")).toBe(true);
    expect(cookie.attributes.has("httponly")).toBe(true);
    expect(cookie.attributes.get("samesite")?.toLowerCase()).toBe("lax");
    expect(cookie.attributes.get("path")).toBe("/");
    expect(cookie.attributes.has("domain")).toBe(false);
    // The same server takes it back, and the page guard sees it.
    const headers = new Headers({ cookie: `${cookie.name}=${encodeURIComponent(cookie.value)}` });
    expect((await betterAuth(authOptions()).api.getSession({ headers }))?.user.email).toBe(credentials.email);
    expect(hasSessionCookie(headers)).toBe(true);
  });

  it("the page guard looks for exactly the session cookie's names", () => {
    expect(hasSessionCookie(new Headers({ cookie: "versus.session_token=x" }))).toBe(true);
    expect(hasSessionCookie(new Headers({ cookie: "__Host-versus.session_token=x" }))).toBe(true);
    expect(hasSessionCookie(new Headers({ cookie: "versus.session_data=x; other=y" }))).toBe(false);
    expect(hasSessionCookie(new Headers())).toBe(false);
  });
});

describe("session tokens", () => {
  it("every sign-in makes a new token of at least 128 random bits; one the browser already had is not kept", async () => {
    const credentials = await account();
    const first = await signIn("http://localhost:3000", credentials);
    const second = await signIn("http://localhost:3000", credentials, `${first.name}=${encodeURIComponent(first.value)}`);
    expect(tokenOf(second)).not.toBe(tokenOf(first));
    // 32 characters of [A-Za-z0-9]: 190 bits.
    for (const token of [tokenOf(first), tokenOf(second)]) expect(token).toMatch(/^[A-Za-z0-9]{32,}$/);
  });

  it("use renews a session, but never past SESSION_ABSOLUTE_MAX_AGE_SECONDS after its sign-in: then one signs in again", async () => {
    const credentials = await account();
    const cookie = await signIn("http://localhost:3000", credentials);
    const headers = new Headers({ cookie: `${cookie.name}=${encodeURIComponent(cookie.value)}` });
    const auth = betterAuth(authOptions());
    // A session signed in 29.5 days ago and used every day since: due for renewal now.
    const createdAt = new Date(Date.now() - (SESSION_ABSOLUTE_MAX_AGE_SECONDS - 12 * 3600) * 1000);
    await db.session.updateMany({ where: { token: tokenOf(cookie) }, data: { createdAt, expiresAt: new Date(Date.now() + 3600_000) } });
    expect((await auth.api.getSession({ headers }))?.user.email).toBe(credentials.email);
    const renewed = await db.session.findFirstOrThrow({ where: { token: tokenOf(cookie) } });
    expect(renewed.expiresAt.getTime()).toBeLessThanOrEqual(createdAt.getTime() + SESSION_ABSOLUTE_MAX_AGE_SECONDS * 1000);
    expect(renewed.expiresAt.getTime()).toBeGreaterThan(Date.now());
    // Once that moment has passed, the session is gone.
    await db.session.updateMany({ where: { token: tokenOf(cookie) }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect(await auth.api.getSession({ headers })).toBeNull();
  });
});
