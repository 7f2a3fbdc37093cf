// Real users with real sessions for tests: the account is written the way the setup and
// invitation flows write it, and the session cookie comes from better-auth's own sign-in.
import crypto from "node:crypto";
import { createCaller } from "~/server/api/root";
import { createTRPCContext } from "~/server/api/trpc";
import type { MemberRole } from "~/server/access/project-access";
import { auth } from "~/server/auth/auth";
import { createUserWithPassword } from "~/server/auth/credentials";
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

export async function signedInUser(db: Db, label = "user"): Promise<TestUser> {
  const email = `${label}-${crypto.randomBytes(5).toString("hex")}@example.test`;
  const password = `pw-${crypto.randomBytes(12).toString("base64url")}`;
  const user = await db.$transaction((tx) => createUserWithPassword(tx, { name: label, email, password }));
  const cookie = await signIn(email, password);
  const headers = () => new Headers({ cookie });
  return { id: user.id, email, password, cookie, headers, caller: createCaller(() => createTRPCContext({ headers: headers(), db })) };
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
