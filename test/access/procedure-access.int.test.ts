// Every tRPC procedure against every kind of caller, on a real database with real sessions:
// signed out, a signed-in stranger (member of another project only), and each role of the
// project. The call names the project and nothing else, so a caller the procedure should let in
// gets past the access check and stops at input validation (or answers), while one it should
// not is stopped before any input is read — and the stranger cannot tell the project exists.
import crypto from "node:crypto";
import { TRPCError } from "@trpc/server";
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from "vitest";
import { appRouter } from "~/server/api/root";
import { roleAtLeast, type MemberRole } from "~/server/access/project-access";
import { createPrismaClient } from "~/server/db/client";
import { createProject } from "~/server/projects/projects";
import { addMember, anonymousCaller, signedInUser, type TestUser } from "~/test/signed-in";
import { procedureAccess } from "./procedure-access";

const db = createPrismaClient(inject("databaseUrl"));
afterAll(() => db.$disconnect());

type AnyCaller = ReturnType<typeof anonymousCaller>;
const procedurePaths = Object.keys(appRouter._def.procedures).sort();
const roles: MemberRole[] = ["viewer", "member", "owner"];

/** Calls `path` ("experiment.get") on a caller with `input`; resolves to the TRPCError code or "ok". */
async function outcome(caller: AnyCaller, path: string, input: unknown): Promise<{ code: string; message: string }> {
  const fn = path.split(".").reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], caller) as (input: unknown) => Promise<unknown>;
  try {
    await fn(input);
    return { code: "ok", message: "" };
  } catch (error) {
    if (error instanceof TRPCError) return { code: error.code, message: error.message };
    throw error;
  }
}

describe("every tRPC procedure has an access rule", () => {
  it("the table names each procedure of the router, and nothing else", () => {
    expect(Object.keys(procedureAccess).sort()).toEqual(procedurePaths);
  });
});

describe("access matrix", () => {
  let slug: string;
  let projectId: string;
  const members = {} as Record<MemberRole, TestUser>;
  let stranger: TestUser;

  beforeAll(async () => {
    slug = `acl-${crypto.randomBytes(4).toString("hex")}`;
    members.owner = await signedInUser(db, "owner");
    const project = await createProject(db, { name: slug, slug, description: "" }, members.owner.id);
    projectId = project.id;
    for (const role of ["member", "viewer"] as const) {
      members[role] = await signedInUser(db, role);
      await addMember(db, project.id, members[role].id, role);
    }
    // A stranger is an owner elsewhere: being signed in and owning things must not help.
    stranger = await signedInUser(db, "stranger");
    await createProject(db, { name: `${slug}-other`, slug: `${slug}-other`, description: "" }, stranger.id);
  });

  // A procedure the caller may use can change who is in the project (member.leave needs only the
  // slug): put everyone back, so each procedure meets the same three roles.
  afterEach(async () => {
    for (const role of ["member", "viewer"] as const) {
      const userId = members[role].id;
      await db.member.upsert({ where: { projectId_userId: { projectId, userId } }, create: { projectId, userId, role }, update: { role } });
    }
  });

  const scoped = Object.entries(procedureAccess).filter((entry): entry is [string, MemberRole] => roles.includes(entry[1] as MemberRole));

  it.each(scoped)("%s needs the %s role", async (path, needed) => {
    const input = { projectSlug: slug };
    expect((await outcome(anonymousCaller(db), path, input)).code, "signed out").toBe("UNAUTHORIZED");

    // The stranger gets the same answer as for a project that does not exist.
    const strangers = await outcome(stranger.caller, path, input);
    const missing = await outcome(stranger.caller, path, { projectSlug: `${slug}-missing` });
    expect(strangers.code, "stranger").toBe("NOT_FOUND");
    expect(strangers.message.replace(slug, "<slug>")).toBe(missing.message.replace(`${slug}-missing`, "<slug>"));

    for (const role of roles) {
      const { code, message } = await outcome(members[role].caller, path, input);
      if (roleAtLeast(role, needed)) {
        expect(["UNAUTHORIZED", "FORBIDDEN"], `${role}: ${message}`).not.toContain(code);
        expect(message, role).not.toBe(`No project "${slug}"`);
      } else {
        expect({ role, code }).toEqual({ role, code: "FORBIDDEN" });
      }
    }
  });

  const signedIn = Object.entries(procedureAccess)
    .filter(([, access]) => access === "signed-in")
    .map(([path]) => path);
  it.each(signedIn)("%s needs a session", async (path) => {
    expect((await outcome(anonymousCaller(db), path, {})).code).toBe("UNAUTHORIZED");
    expect((await outcome(stranger.caller, path, {})).code).not.toBe("UNAUTHORIZED");
  });

  const open = Object.entries(procedureAccess)
    .filter(([, access]) => access === "public")
    .map(([path]) => path);
  it.each(open)("%s is open to the signed-out", async (path) => {
    expect((await outcome(anonymousCaller(db), path, { token: "x" })).code).not.toBe("UNAUTHORIZED");
  });
});
