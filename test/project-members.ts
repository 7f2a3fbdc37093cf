// Shared by the membership and invitation tests: a project with an owner, people with a chosen
// email signed in for real, a snapshot of a project's membership rows, and tRPC error checks.
import crypto from "node:crypto";
import { TRPCError } from "@trpc/server";
import { expect } from "vitest";
import { createCaller } from "~/server/api/root";
import { createTRPCContext } from "~/server/api/trpc";
import type { MemberRole } from "~/server/access/project-access";
import { createUserWithPassword } from "~/server/auth/credentials";
import type { Db } from "~/server/db/client";
import { addMember, signedInUser, signIn, type TestUser } from "./signed-in";

export const uniqueSuffix = () => crypto.randomBytes(4).toString("hex");

export const uniqueEmail = (label: string) => `${label}-${uniqueSuffix()}@example.test`;

export interface TestProject {
  id: string;
  slug: string;
  name: string;
  owner: TestUser;
}

/** A new project created through tRPC by a new user, who becomes its owner. */
export async function projectWithOwner(db: Db, label: string): Promise<TestProject> {
  const owner = await signedInUser(db, `${label}-owner`);
  const suffix = uniqueSuffix();
  const project = await owner.caller.project.create({ name: `${label} ${suffix}`, slug: `it-${label}-${suffix}` });
  return { id: project.id, slug: project.slug, name: project.name, owner };
}

/** A new user with `role` in the project. */
export async function memberOf(db: Db, project: TestProject, role: MemberRole, label: string = role): Promise<TestUser> {
  const user = await signedInUser(db, label);
  await addMember(db, project.id, user.id, role);
  return user;
}

/** tRPC as whoever signs in with these credentials (an account made by an invitation, say). */
export async function callerSignedInAs(db: Db, email: string, password: string) {
  const cookie = await signIn(email, password);
  return createCaller(() => createTRPCContext({ headers: new Headers({ cookie }), db }));
}

/** A user with a chosen email (and no membership anywhere), signed in. */
export async function userWithEmail(db: Db, email: string) {
  const password = `pw-${crypto.randomBytes(12).toString("base64url")}`;
  const user = await db.$transaction((tx) => createUserWithPassword(tx, { name: email.split("@")[0] ?? email, email, password }));
  return { id: user.id, email, password, caller: await callerSignedInAs(db, email, password) };
}

/** Every membership and invitation row of a project, in a stable order: "nothing changed" checks. */
export async function membershipRows(db: Db, projectId: string) {
  const [members, invitations] = await Promise.all([
    db.member.findMany({ where: { projectId }, orderBy: { id: "asc" }, select: { id: true, userId: true, role: true } }),
    db.projectInvitation.findMany({ where: { projectId }, orderBy: { id: "asc" }, select: { id: true, email: true, role: true, acceptedAt: true, revokedAt: true, expiresAt: true } }),
  ]);
  return { members, invitations };
}

/** Awaits a call that must fail with a TRPCError of `code`, and returns that error. */
export async function expectTRPCError(call: Promise<unknown>, code: TRPCError["code"]): Promise<TRPCError> {
  const error = await call.then(
    (value: unknown) => {
      throw new Error(`expected ${code}, but the call succeeded with ${JSON.stringify(value)}`);
    },
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(TRPCError);
  expect((error as TRPCError).code, (error as TRPCError).message).toBe(code);
  return error as TRPCError;
}

/** Runs a call that must be refused with `code`, and checks the project's membership rows did not change. */
export async function expectRefusedUnchanged(db: Db, projectId: string, call: () => Promise<unknown>, code: TRPCError["code"]): Promise<TRPCError> {
  const before = await membershipRows(db, projectId);
  const error = await expectTRPCError(call(), code);
  expect(await membershipRows(db, projectId)).toEqual(before);
  return error;
}
