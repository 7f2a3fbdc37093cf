// Shared by the membership and invitation tests: a project with an owner, people with a chosen
// email signed in for real, a snapshot of a project's membership rows, and refusal checks.
import crypto from "node:crypto";
import type { TRPCError } from "@trpc/server";
import { expect } from "vitest";
import type { MemberRole } from "~/server/access/project-access";
import type { Db } from "~/server/db/client";
import { addMember, signedInUser, type TestUser } from "./signed-in";
import { expectTRPCError } from "./trpc-errors";

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

/** Every membership and invitation row of a project, in a stable order: "nothing changed" checks. */
export async function membershipRows(db: Db, projectId: string) {
  const [members, invitations] = await Promise.all([
    db.member.findMany({ where: { projectId }, orderBy: { id: "asc" }, select: { id: true, userId: true, role: true } }),
    db.projectInvitation.findMany({
      where: { projectId },
      orderBy: { id: "asc" },
      select: { id: true, email: true, role: true, acceptedAt: true, revokedAt: true, expiresAt: true },
    }),
  ]);
  return { members, invitations };
}

/** Runs a call that must be refused with `code`, and checks the project's membership rows did not change. */
export async function expectRefusedUnchanged(db: Db, projectId: string, call: () => Promise<unknown>, code: TRPCError["code"]): Promise<TRPCError> {
  const before = await membershipRows(db, projectId);
  const error = await expectTRPCError(call(), code);
  expect(await membershipRows(db, projectId)).toEqual(before);
  return error;
}
