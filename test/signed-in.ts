// Real users with real sessions for tests: the account is written the way the setup and
// invitation flows write it, and the session cookie comes from better-auth's own sign-in.
import crypto from "node:crypto";
import { createCaller } from "~/server/api/root";
import { createTRPCContext } from "~/server/api/trpc";
import type { MemberRole } from "~/server/access/project-access";
import { auth } from "~/server/auth/auth";
import { createUserWithPassword, prepareNewAccount } from "~/server/auth/credentials";
import type { Db } from "~/server/db/client";

export interface TestUser {
  id: string;
  email: string;
  password: string;
  /** `name=value` of the session cookie, for a Cookie header. */
  cookie: string;
  headers: () => Headers;
  /** tRPC as this user, in-process. */
  caller: ReturnType<typeof createCaller>;
}

/** A new user named `label`, signed in; `email` when the test needs a chosen address. */
export async function signedInUser(db: Db, label = "user", email = `${label}-${crypto.randomBytes(5).toString("hex")}@example.test`): Promise<TestUser> {
  const password = `pw-${crypto.randomBytes(12).toString("base64url")}`;
  const newAccount = await prepareNewAccount({ name: label, email, password });
  const user = await db.$transaction((tx) => createUserWithPassword(tx, newAccount));
  const cookie = await signIn(email, password);
  return { id: user.id, email, password, cookie, headers: () => new Headers({ cookie }), caller: callerFor(db, cookie) };
}

/** A user with a chosen email (and no membership anywhere), signed in. */
export function userWithEmail(db: Db, email: string): Promise<TestUser> {
  return signedInUser(db, email.split("@")[0] ?? email, email);
}

/** tRPC as whoever signs in with these credentials (an account made by an invitation, say). */
export async function callerSignedInAs(db: Db, email: string, password: string) {
  return callerFor(db, await signIn(email, password));
}

function callerFor(db: Db, cookie: string) {
  return createCaller(() => createTRPCContext({ headers: new Headers({ cookie }), db }));
}

/** Signs in through better-auth and returns the session cookie it set. */
export async function signIn(email: string, password: string): Promise<string> {
  const { headers } = await auth.api.signInEmail({ body: { email, password }, returnHeaders: true });
  const setCookie = headers.get("set-cookie") ?? "";
  const match = /(?:^|,\s*)([^=;,\s]*session_token)=([^;]+)/.exec(setCookie);
  if (!match) throw new Error(`sign-in set no session cookie: ${setCookie}`);
  return `${match[1]}=${match[2]}`;
}

export async function addMember(db: Db, projectId: string, userId: string, role: MemberRole) {
  await db.member.create({ data: { projectId, userId, role } });
}

/** tRPC with no session at all. */
export function anonymousCaller(db: Db) {
  return createCaller(() => createTRPCContext({ headers: new Headers(), db }));
}
