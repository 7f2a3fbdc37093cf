// Invitation links through tRPC on a real, migrated PostgreSQL: what the public page sees, and
// accepting — a new account and its membership in one transaction, or joining when signed in
// as the invited address. Expired, revoked and used links are refused, and a refusal or a failure
// part-way leaves no user, no membership and an unused invitation.
import { afterAll, describe, expect, inject, it } from "vitest";
import { createPrismaClient } from "../db/client";
import { AppError } from "../core/errors";
import { expectRefusedUnchanged, membershipRows, projectWithOwner, uniqueEmail, type TestProject } from "~/test/project-members";
import { anonymousCaller, callerSignedInAs, signedInUser } from "~/test/signed-in";
import { expectTRPCError } from "~/test/trpc-errors";
import type { MemberRole } from "../access/project-access";

const db = createPrismaClient(inject("databaseUrl"));
const anonymous = anonymousCaller(db);
afterAll(() => db.$disconnect());

const password = "correct horse battery";

/** The owner invites a new address; returns the link's token. */
async function invite(project: TestProject, email: string, role: MemberRole = "viewer") {
  const result = await project.owner.caller.member.invite({ projectSlug: project.slug, email, role });
  if (result.kind !== "invited") throw new Error(`${email} was added directly; expected an invitation`);
  return { token: result.path.slice("/invite/".length), id: result.invitation.id };
}

/** Users, credential accounts and memberships of one address: what an accept may create. */
async function rowsOf(email: string) {
  const users = await db.user.findMany({ where: { email }, select: { id: true } });
  const userIds = users.map((u) => u.id);
  return {
    users: users.length,
    accounts: await db.account.count({ where: { userId: { in: userIds } } }),
    memberships: await db.member.count({ where: { userId: { in: userIds } } }),
  };
}

describe("the invitation page", () => {
  it("shows the project, role, address, inviter and state to anyone holding the link", async () => {
    const project = await projectWithOwner(db, "view");
    const email = uniqueEmail("invitee");
    const { token } = await invite(project, email, "member");

    expect(await anonymous.invitation.view({ token })).toMatchObject({
      projectName: project.name,
      projectSlug: project.slug,
      role: "member",
      email,
      invitedBy: "view-owner",
      state: "valid",
      accountExists: false,
      signedInEmail: null,
    });
    const someoneElse = await signedInUser(db, "someone");
    expect(await someoneElse.caller.invitation.view({ token })).toMatchObject({ signedInEmail: someoneElse.email });
  });

  it("an unknown or incomplete link is not found", async () => {
    await expectTRPCError(anonymous.invitation.view({ token: "vinv_this-is-not-a-real-invitation-token-at-all" }), "NOT_FOUND");
    await expectTRPCError(anonymous.invitation.view({ token: "" }), "BAD_REQUEST");
    await expectTRPCError(
      anonymous.invitation.accept({ token: "vinv_nope", account: { name: "Nobody", email: "nobody@example.test", password } }),
      "NOT_FOUND",
    );
  });
});

describe("accepting with a new account", () => {
  it("creates the account and the membership together; the new user signs in and reads, as a viewer", async () => {
    const project = await projectWithOwner(db, "accept");
    const email = uniqueEmail("newbie");
    const { token, id } = await invite(project, email, "viewer");

    const accepted = await anonymous.invitation.accept({ token, account: { name: "  Nia Newbie ", email: email.toUpperCase(), password } });
    expect(accepted).toEqual({ projectSlug: project.slug, projectName: project.name, role: "viewer", email, accountCreated: true });

    const user = await db.user.findUniqueOrThrow({ where: { email }, include: { accounts: true, memberships: true } });
    expect(user.name).toBe("Nia Newbie");
    expect(user.accounts.map((a) => a.providerId)).toEqual(["credential"]);
    expect(user.accounts[0]!.password).not.toContain(password);
    expect(user.memberships.map((m) => [m.projectId, m.role])).toEqual([[project.id, "viewer"]]);
    expect((await db.projectInvitation.findUniqueOrThrow({ where: { id } })).acceptedAt).toBeInstanceOf(Date);
    expect(await anonymous.invitation.view({ token })).toMatchObject({ state: "accepted", accountExists: true });

    const caller = await callerSignedInAs(db, email, password);
    expect(await caller.project.bySlug({ projectSlug: project.slug })).toMatchObject({ role: "viewer" });
    await expectTRPCError(caller.experiment.delete({ projectSlug: project.slug, experimentSlug: "any" }), "FORBIDDEN");
  });

  it("accepting twice is refused and duplicates nothing, signed out or signed in", async () => {
    const project = await projectWithOwner(db, "twice");
    const email = uniqueEmail("twice");
    const { token } = await invite(project, email);
    await anonymous.invitation.accept({ token, account: { name: "Once", email, password } });
    const after = await rowsOf(email);

    const again = await expectRefusedUnchanged(
      db,
      project.id,
      () => anonymous.invitation.accept({ token, account: { name: "Twice", email, password } }),
      "CONFLICT",
    );
    expect(again.message).toMatch(/already been accepted/);
    const signedIn = await callerSignedInAs(db, email, password);
    await expectRefusedUnchanged(db, project.id, () => signedIn.invitation.accept({ token }), "CONFLICT");
    expect(await rowsOf(email)).toEqual(after);
    expect(after).toEqual({ users: 1, accounts: 1, memberships: 1 });
  });

  it("the same link accepted twice at the same moment makes one account", async () => {
    const project = await projectWithOwner(db, "race-accept");
    const email = uniqueEmail("racer");
    const { token } = await invite(project, email);
    const outcomes = await Promise.allSettled([
      anonymous.invitation.accept({ token, account: { name: "First", email, password } }),
      anonymous.invitation.accept({ token, account: { name: "Second", email, password } }),
    ]);
    expect(outcomes.map((o) => o.status).sort()).toEqual(["fulfilled", "rejected"]);
    expect(await rowsOf(email)).toEqual({ users: 1, accounts: 1, memberships: 1 });
  });

  it("without a name and password, with a short password or another address, nothing is created and the fields say why", async () => {
    const project = await projectWithOwner(db, "no-account");
    const email = uniqueEmail("blank");
    const { token } = await invite(project, email);

    const missing = await expectRefusedUnchanged(db, project.id, () => anonymous.invitation.accept({ token }), "BAD_REQUEST");
    expect((missing.cause as AppError).fieldIssues.map((i) => i.path.join("."))).toEqual(["account.name", "account.password"]);
    await expectRefusedUnchanged(
      db,
      project.id,
      () => anonymous.invitation.accept({ token, account: { name: "Shorty", email, password: "short" } }),
      "BAD_REQUEST",
    );
    const elsewhere = await expectRefusedUnchanged(
      db,
      project.id,
      () => anonymous.invitation.accept({ token, account: { name: "Elsewhere", email: uniqueEmail("elsewhere"), password } }),
      "BAD_REQUEST",
    );
    expect((elsewhere.cause as AppError).fieldIssues).toEqual([{ path: ["account", "email"], message: `this invitation is for ${email}` }]);
    expect(await rowsOf(email)).toEqual({ users: 0, accounts: 0, memberships: 0 });
    expect(await anonymous.invitation.view({ token })).toMatchObject({ state: "valid" });
  });

  it("a failure part-way through leaves no user behind and the link unused", async () => {
    const project = await projectWithOwner(db, "atomic");
    const email = uniqueEmail("atomic");
    const { token } = await invite(project, email);
    // A real database failure after the account rows are written: a trigger refuses this
    // project's next membership.
    const fn = `test_refuse_member_${project.id}`;
    await db.$executeRawUnsafe(
      `CREATE FUNCTION "${fn}"() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'membership refused by the test'; END $$`,
    );
    await db.$executeRawUnsafe(
      `CREATE TRIGGER "${fn}" BEFORE INSERT ON "Member" FOR EACH ROW WHEN (NEW."projectId" = '${project.id}') EXECUTE FUNCTION "${fn}"()`,
    );
    try {
      const before = await membershipRows(db, project.id);
      await expect(anonymous.invitation.accept({ token, account: { name: "Atomic", email, password } })).rejects.toThrow(/membership refused by the test/);
      expect(await rowsOf(email)).toEqual({ users: 0, accounts: 0, memberships: 0 });
      expect(await membershipRows(db, project.id)).toEqual(before);
    } finally {
      await db.$executeRawUnsafe(`DROP TRIGGER "${fn}" ON "Member"`);
      await db.$executeRawUnsafe(`DROP FUNCTION "${fn}"()`);
    }
    // The same link still works once the database accepts memberships again.
    await anonymous.invitation.accept({ token, account: { name: "Atomic", email, password } });
    expect(await rowsOf(email)).toEqual({ users: 1, accounts: 1, memberships: 1 });
  });
});

describe("links that no longer work", () => {
  it("an expired link is refused and creates nothing", async () => {
    const project = await projectWithOwner(db, "expired");
    const email = uniqueEmail("late");
    const { token, id } = await invite(project, email);
    await db.projectInvitation.update({ where: { id }, data: { expiresAt: new Date(Date.now() - 1000) } });

    expect(await anonymous.invitation.view({ token })).toMatchObject({ state: "expired" });
    expect(await project.owner.caller.member.invitations({ projectSlug: project.slug })).toMatchObject([{ id, state: "expired" }]);
    const error = await expectRefusedUnchanged(
      db,
      project.id,
      () => anonymous.invitation.accept({ token, account: { name: "Late", email, password } }),
      "CONFLICT",
    );
    expect(error.message).toMatch(/expired/);
    expect(await rowsOf(email)).toEqual({ users: 0, accounts: 0, memberships: 0 });
  });

  it("a revoked link is refused and creates nothing", async () => {
    const project = await projectWithOwner(db, "revoked");
    const email = uniqueEmail("revoked");
    const { token, id } = await invite(project, email);
    await project.owner.caller.member.revokeInvitation({ projectSlug: project.slug, invitationId: id });

    const error = await expectRefusedUnchanged(
      db,
      project.id,
      () => anonymous.invitation.accept({ token, account: { name: "Revoked", email, password } }),
      "CONFLICT",
    );
    expect(error.message).toMatch(/withdrawn/);
    expect(await rowsOf(email)).toEqual({ users: 0, accounts: 0, memberships: 0 });
  });
});

describe("accepting with an existing account", () => {
  it("asks a signed-out visitor to sign in, then joins them with the invited role", async () => {
    const first = await projectWithOwner(db, "first");
    const second = await projectWithOwner(db, "second");
    const email = uniqueEmail("both");
    // Invited to two projects before having an account; the first link creates it.
    const { token: secondToken } = await invite(second, email, "member");
    const { token: firstToken } = await invite(first, email, "viewer");
    await anonymous.invitation.accept({ token: firstToken, account: { name: "Both", email, password } });

    expect(await anonymous.invitation.view({ token: secondToken })).toMatchObject({ accountExists: true, state: "valid" });
    const signedOut = await expectRefusedUnchanged(
      db,
      second.id,
      () => anonymous.invitation.accept({ token: secondToken, account: { name: "Again", email, password } }),
      "UNAUTHORIZED",
    );
    expect(signedOut.message).toContain(`sign in as ${email}`);

    const caller = await callerSignedInAs(db, email, password);
    expect(await caller.invitation.accept({ token: secondToken })).toMatchObject({ projectSlug: second.slug, role: "member", accountCreated: false });
    expect(await caller.project.bySlug({ projectSlug: second.slug })).toMatchObject({ role: "member" });
    expect(await rowsOf(email)).toEqual({ users: 1, accounts: 1, memberships: 2 });
  });

  it("signed in as a different address is refused, naming both", async () => {
    const project = await projectWithOwner(db, "wrong-user");
    const email = uniqueEmail("intended");
    const { token } = await invite(project, email);
    const other = await signedInUser(db, "other");

    const error = await expectRefusedUnchanged(db, project.id, () => other.caller.invitation.accept({ token }), "FORBIDDEN");
    expect(error.message).toContain(email);
    expect(error.message).toContain(other.email);
    expect(await anonymous.invitation.view({ token })).toMatchObject({ state: "valid" });
  });
});
