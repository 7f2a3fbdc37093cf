// Project members through tRPC on a real, migrated PostgreSQL: who may list, invite, change roles
// and remove; the last owner always stays; ids from another project are "not found" and change
// nothing. Invitation links (view, accept) are in invitations.int.test.ts.
import { afterAll, describe, expect, inject, it } from "vitest";
import { hashSecret } from "../auth/secret-tokens";
import { createPrismaClient } from "../db/client";
import { AppError } from "../core/errors";
import { INVITATION_LIFETIME_MS } from "./invitations";
import { changeMemberRole } from "./members";
import { expectRefusedUnchanged, memberOf, membershipRows, projectWithOwner, uniqueEmail } from "~/test/project-members";
import { anonymousCaller, signedInUser, userWithEmail } from "~/test/signed-in";
import { expectTRPCError } from "~/test/trpc-errors";

const db = createPrismaClient(inject("databaseUrl"));
afterAll(() => db.$disconnect());

describe("listing members", () => {
  it("every member sees names, emails, roles and when they joined, owners first", async () => {
    const project = await projectWithOwner(db, "list");
    const member = await memberOf(db, project, "member", "bea");
    const viewer = await memberOf(db, project, "viewer", "cid");

    const listed = await viewer.caller.member.list({ projectSlug: project.slug });
    expect(listed.role).toBe("viewer");
    expect(listed.currentUserId).toBe(viewer.id);
    expect(listed.members.map((m) => [m.email, m.role])).toEqual([
      [project.owner.email, "owner"],
      [member.email, "member"],
      [viewer.email, "viewer"],
    ]);
    expect(listed.members[1]).toMatchObject({ name: "bea", userId: member.id });
    expect(listed.members[1]!.joinedAt).toBeInstanceOf(Date);
  });

  it("pending invitations are for owners only", async () => {
    const project = await projectWithOwner(db, "list-inv");
    await project.owner.caller.member.invite({ projectSlug: project.slug, email: uniqueEmail("new"), role: "viewer" });
    const member = await memberOf(db, project, "member");
    const viewer = await memberOf(db, project, "viewer");

    expect(await project.owner.caller.member.invitations({ projectSlug: project.slug })).toHaveLength(1);
    await expectTRPCError(member.caller.member.invitations({ projectSlug: project.slug }), "FORBIDDEN");
    await expectTRPCError(viewer.caller.member.invitations({ projectSlug: project.slug }), "FORBIDDEN");
  });

  it("outsiders and signed-out callers learn nothing", async () => {
    const project = await projectWithOwner(db, "list-out");
    const outsider = await signedInUser(db, "outsider");
    await expectTRPCError(outsider.caller.member.list({ projectSlug: project.slug }), "NOT_FOUND");
    await expectTRPCError(anonymousCaller(db).member.list({ projectSlug: project.slug }), "UNAUTHORIZED");
  });
});

describe("inviting", () => {
  it("someone with an account joins at once, with the role given, and their pending invitation is withdrawn", async () => {
    const project = await projectWithOwner(db, "inv-existing");
    const email = uniqueEmail("existing");
    const first = await project.owner.caller.member.invite({ projectSlug: project.slug, email, role: "member" });
    expect(first.kind).toBe("invited");
    const person = await userWithEmail(db, email);

    const result = await project.owner.caller.member.invite({ projectSlug: project.slug, email: email.toUpperCase(), role: "viewer" });
    expect(result).toMatchObject({ kind: "added", member: { userId: person.id, email, role: "viewer" } });
    expect(await person.caller.project.bySlug({ projectSlug: project.slug })).toMatchObject({ role: "viewer" });
    expect(await project.owner.caller.member.invitations({ projectSlug: project.slug })).toEqual([]);
  });

  it("inviting a member again is a conflict on the email field, and changes nothing", async () => {
    const project = await projectWithOwner(db, "inv-again");
    const member = await memberOf(db, project, "member");
    const error = await expectRefusedUnchanged(
      db,
      project.id,
      () => project.owner.caller.member.invite({ projectSlug: project.slug, email: member.email, role: "owner" }),
      "CONFLICT",
    );
    expect(error.message).toContain("already a member");
    expect((error.cause as AppError).fieldIssues.map((issue) => issue.path)).toEqual([["email"]]);
  });

  it("anyone else gets a one-week link, shown once; the database keeps only its hash", async () => {
    const project = await projectWithOwner(db, "inv-new");
    const email = uniqueEmail("new");
    const before = Date.now();
    const result = await project.owner.caller.member.invite({ projectSlug: project.slug, email, role: "viewer" });
    if (result.kind !== "invited") throw new Error(`expected an invitation, got ${result.kind}`);

    const token = /^\/invite\/(vinv_[A-Za-z0-9_-]{43})$/.exec(result.path)?.[1];
    expect(token, result.path).toBeDefined();
    expect(result.invitation).toMatchObject({ email, role: "viewer", state: "valid", invitedBy: "inv-new-owner" });
    expect(result.invitation.expiresAt.getTime() - before).toBeGreaterThanOrEqual(INVITATION_LIFETIME_MS - 1000);
    expect(result.invitation.expiresAt.getTime() - Date.now()).toBeLessThanOrEqual(INVITATION_LIFETIME_MS);

    const stored = await db.projectInvitation.findUniqueOrThrow({ where: { id: result.invitation.id } });
    expect(stored.tokenHash).toBe(hashSecret(token!));
    expect(JSON.stringify(stored)).not.toContain(token!);
    expect(JSON.stringify(stored)).not.toContain(token!.slice(5, 20));
    // Listing never gives the link out again.
    expect(JSON.stringify(await project.owner.caller.member.invitations({ projectSlug: project.slug }))).not.toContain(token!);
  });

  it("inviting the same email again replaces the pending invitation", async () => {
    const project = await projectWithOwner(db, "inv-replace");
    const email = uniqueEmail("twice");
    const first = await project.owner.caller.member.invite({ projectSlug: project.slug, email, role: "viewer" });
    const second = await project.owner.caller.member.invite({ projectSlug: project.slug, email, role: "member" });
    if (first.kind !== "invited" || second.kind !== "invited") throw new Error("expected two invitations");

    const pending = await project.owner.caller.member.invitations({ projectSlug: project.slug });
    expect(pending.map((i) => [i.id, i.email, i.role])).toEqual([[second.invitation.id, email, "member"]]);
    const anonymous = anonymousCaller(db);
    expect(await anonymous.invitation.view({ token: first.path.split("/")[2]! })).toMatchObject({ state: "revoked" });
    expect(await anonymous.invitation.view({ token: second.path.split("/")[2]! })).toMatchObject({ state: "valid", role: "member" });
  });

  it("a malformed email or role is a field error", async () => {
    const project = await projectWithOwner(db, "inv-bad");
    await expectRefusedUnchanged(
      db,
      project.id,
      // @ts-expect-error — "admin" is not a role
      () => project.owner.caller.member.invite({ projectSlug: project.slug, email: "not an email", role: "admin" }),
      "BAD_REQUEST",
    );
  });
});

describe("changing roles, removing, leaving", () => {
  it("an owner promotes and demotes members", async () => {
    const project = await projectWithOwner(db, "roles");
    const member = await memberOf(db, project, "member");
    const row = await memberRow(project.slug, project.owner.caller, member.id);

    expect(await project.owner.caller.member.changeRole({ projectSlug: project.slug, memberId: row.id, role: "owner" })).toMatchObject({ role: "owner" });
    // Now a co-owner, they may demote the original owner.
    const ownerRow = await memberRow(project.slug, member.caller, project.owner.id);
    await member.caller.member.changeRole({ projectSlug: project.slug, memberId: ownerRow.id, role: "viewer" });
    expect(await project.owner.caller.project.bySlug({ projectSlug: project.slug })).toMatchObject({ role: "viewer" });
  });

  it("the last owner can be neither demoted nor removed, and may not leave", async () => {
    const project = await projectWithOwner(db, "last-owner");
    await memberOf(db, project, "member");
    const ownerRow = await memberRow(project.slug, project.owner.caller, project.owner.id);
    const demote = await expectRefusedUnchanged(
      db,
      project.id,
      () => project.owner.caller.member.changeRole({ projectSlug: project.slug, memberId: ownerRow.id, role: "member" }),
      "CONFLICT",
    );
    expect(demote.message).toMatch(/only owner of this project; make another member an owner first/);
    const remove = await expectRefusedUnchanged(
      db,
      project.id,
      () => project.owner.caller.member.remove({ projectSlug: project.slug, memberId: ownerRow.id }),
      "CONFLICT",
    );
    expect(remove.message).toMatch(/only owner/);
    const leave = await expectRefusedUnchanged(db, project.id, () => project.owner.caller.member.leave({ projectSlug: project.slug }), "CONFLICT");
    expect(leave.message).toMatch(/You are the only owner/);
    // Keeping the owner role is no demotion.
    await project.owner.caller.member.changeRole({ projectSlug: project.slug, memberId: ownerRow.id, role: "owner" });
  });

  it("two owners demoting each other at the same moment leave one owner, not none", async () => {
    const project = await projectWithOwner(db, "race");
    const second = await memberOf(db, project, "owner");
    const firstRow = await memberRow(project.slug, second.caller, project.owner.id);
    const secondRow = await memberRow(project.slug, project.owner.caller, second.id);

    // Hold both owner rows so neither demotion can finish before the other has started: without
    // the per-project lock both would count two owners and both would commit.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let holding!: () => void;
    const held = new Promise<void>((resolve) => (holding = resolve));
    const blocker = db.$transaction(
      async (tx) => {
        await tx.$queryRaw`SELECT id FROM "Member" WHERE "projectId" = ${project.id} AND role = 'owner' FOR UPDATE`;
        holding();
        await released;
      },
      { timeout: 30_000 },
    );
    await held;
    // Both have passed the access check (both are owners) before either demotion starts.
    const demotions = Promise.allSettled([changeMemberRole(db, project.id, secondRow.id, "viewer"), changeMemberRole(db, project.id, firstRow.id, "viewer")]);
    await waitForLockWaiters(2);
    release();
    await blocker;

    const outcomes = await demotions;
    expect(outcomes.map((o) => o.status).sort()).toEqual(["fulfilled", "rejected"]);
    expect(await db.member.count({ where: { projectId: project.id, role: "owner" } })).toBe(1);
  });

  it("an owner removes a member, who then no longer reaches the project", async () => {
    const project = await projectWithOwner(db, "remove");
    const member = await memberOf(db, project, "member");
    const row = await memberRow(project.slug, project.owner.caller, member.id);
    await project.owner.caller.member.remove({ projectSlug: project.slug, memberId: row.id });
    await expectTRPCError(member.caller.project.bySlug({ projectSlug: project.slug }), "NOT_FOUND");
    await expectTRPCError(project.owner.caller.member.remove({ projectSlug: project.slug, memberId: row.id }), "NOT_FOUND");
  });

  it("anyone may leave, an owner too while another owner remains", async () => {
    const project = await projectWithOwner(db, "leave");
    const viewer = await memberOf(db, project, "viewer");
    const coOwner = await memberOf(db, project, "owner");
    await viewer.caller.member.leave({ projectSlug: project.slug });
    await expectTRPCError(viewer.caller.member.list({ projectSlug: project.slug }), "NOT_FOUND");
    await project.owner.caller.member.leave({ projectSlug: project.slug });
    const remaining = await coOwner.caller.member.list({ projectSlug: project.slug });
    expect(remaining.members.map((m) => [m.userId, m.role])).toEqual([[coOwner.id, "owner"]]);
  });
});

describe("who may manage members", () => {
  it("viewers and members cannot invite, change roles, remove or revoke (FORBIDDEN, nothing changes)", async () => {
    const project = await projectWithOwner(db, "forbidden");
    const invited = await project.owner.caller.member.invite({ projectSlug: project.slug, email: uniqueEmail("pending"), role: "viewer" });
    if (invited.kind !== "invited") throw new Error("expected an invitation");
    const ownerRow = await memberRow(project.slug, project.owner.caller, project.owner.id);

    for (const role of ["viewer", "member"] as const) {
      const { caller, id } = await memberOf(db, project, role);
      const ownRow = await memberRow(project.slug, caller, id);
      const projectSlug = project.slug;
      await expectRefusedUnchanged(db, project.id, () => caller.member.invite({ projectSlug, email: uniqueEmail("x"), role: "viewer" }), "FORBIDDEN");
      await expectRefusedUnchanged(db, project.id, () => caller.member.invite({ projectSlug, email: uniqueEmail("x"), role: "owner" }), "FORBIDDEN");
      await expectRefusedUnchanged(db, project.id, () => caller.member.changeRole({ projectSlug, memberId: ownRow.id, role: "owner" }), "FORBIDDEN");
      await expectRefusedUnchanged(db, project.id, () => caller.member.changeRole({ projectSlug, memberId: ownerRow.id, role: "viewer" }), "FORBIDDEN");
      await expectRefusedUnchanged(db, project.id, () => caller.member.remove({ projectSlug, memberId: ownerRow.id }), "FORBIDDEN");
      await expectRefusedUnchanged(db, project.id, () => caller.member.revokeInvitation({ projectSlug, invitationId: invited.invitation.id }), "FORBIDDEN");
    }
  });
});

describe("ids from another project", () => {
  it("a member id or invitation id of another project is not found, and neither project changes", async () => {
    const mine = await projectWithOwner(db, "mine");
    const theirs = await projectWithOwner(db, "theirs");
    const theirMember = await memberOf(db, theirs, "member");
    const theirMemberRow = await memberRow(theirs.slug, theirs.owner.caller, theirMember.id);
    const theirOwnerRow = await memberRow(theirs.slug, theirs.owner.caller, theirs.owner.id);
    const theirInvitation = await theirs.owner.caller.member.invite({ projectSlug: theirs.slug, email: uniqueEmail("theirs"), role: "viewer" });
    if (theirInvitation.kind !== "invited") throw new Error("expected an invitation");
    const theirsBefore = await membershipRows(db, theirs.id);

    const caller = mine.owner.caller;
    const projectSlug = mine.slug;
    await expectRefusedUnchanged(db, mine.id, () => caller.member.changeRole({ projectSlug, memberId: theirMemberRow.id, role: "viewer" }), "NOT_FOUND");
    await expectRefusedUnchanged(db, mine.id, () => caller.member.changeRole({ projectSlug, memberId: theirOwnerRow.id, role: "viewer" }), "NOT_FOUND");
    await expectRefusedUnchanged(db, mine.id, () => caller.member.remove({ projectSlug, memberId: theirMemberRow.id }), "NOT_FOUND");
    await expectRefusedUnchanged(db, mine.id, () => caller.member.revokeInvitation({ projectSlug, invitationId: theirInvitation.invitation.id }), "NOT_FOUND");
    // Naming their project instead is refused before any id is looked at.
    await expectRefusedUnchanged(db, theirs.id, () => caller.member.remove({ projectSlug: theirs.slug, memberId: theirMemberRow.id }), "NOT_FOUND");
    expect(await membershipRows(db, theirs.id)).toEqual(theirsBefore);
  });
});

describe("revoking invitations", () => {
  it("an owner revokes a pending invitation once; the link then says so", async () => {
    const project = await projectWithOwner(db, "revoke");
    const invited = await project.owner.caller.member.invite({ projectSlug: project.slug, email: uniqueEmail("revoked"), role: "member" });
    if (invited.kind !== "invited") throw new Error("expected an invitation");
    await project.owner.caller.member.revokeInvitation({ projectSlug: project.slug, invitationId: invited.invitation.id });
    expect(await project.owner.caller.member.invitations({ projectSlug: project.slug })).toEqual([]);
    expect(await anonymousCaller(db).invitation.view({ token: invited.path.split("/")[2]! })).toMatchObject({ state: "revoked" });
    await expectTRPCError(project.owner.caller.member.revokeInvitation({ projectSlug: project.slug, invitationId: invited.invitation.id }), "NOT_FOUND");
  });
});

/** The member row of `userId` as the project's member list shows it. */
async function memberRow(
  projectSlug: string,
  caller: { member: { list: (input: { projectSlug: string }) => Promise<{ members: { id: string; userId: string }[] }> } },
  userId: string,
) {
  const { members } = await caller.member.list({ projectSlug });
  const row = members.find((m) => m.userId === userId);
  if (!row) throw new Error(`user ${userId} is not a member of ${projectSlug}`);
  return row;
}

/** Waits until `count` statements of this database wait for a lock. */
async function waitForLockWaiters(count: number) {
  for (let attempt = 0; attempt < 200; attempt++) {
    const [row] = await db.$queryRaw<
      { n: bigint }[]
    >`SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`;
    if (Number(row?.n) >= count) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`fewer than ${count} statements ever waited for a lock`);
}
