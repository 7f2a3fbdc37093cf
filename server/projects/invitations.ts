// Inviting people into a project. Someone who already has an account is added at once; anyone
// else gets a one-time link (/invite/<token>, shown to the owner once, stored only as SHA-256)
// that lets them create their account and join in one transaction, or join if they sign in.
import type { MemberRole } from "../access/project-access";
import { createUserWithPassword, prepareNewAccount, type PreparedAccount } from "../auth/credentials";
import { hashSecret, newSecret } from "../auth/secret-tokens";
import type { SessionUser } from "../auth/session";
import type { Db, Prisma } from "../db/client";
import { AppError, badInput } from "../core/errors";
import type { TNewAccount } from "../schemas/auth";
import { lockMemberships, type MemberRow } from "./members";
import { personLabel } from "../display/display";

/** An invitation link works for a week; after that the owner invites again. */
export const INVITATION_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;

export type InvitationState = "valid" | "expired" | "revoked" | "accepted";

export interface InvitationRow {
  id: string;
  email: string;
  role: MemberRole;
  invitedBy: string | null;
  createdAt: Date;
  expiresAt: Date;
  state: "valid" | "expired";
}

export type InviteResult = { kind: "added"; member: MemberRow } | { kind: "invited"; invitation: InvitationRow; path: string };

const withInviter = { invitedBy: { select: { name: true, email: true } } } as const;

export async function inviteToProject(db: Db, projectId: string, inviterId: string, input: { email: string; role: MemberRole }): Promise<InviteResult> {
  const { email, role } = input;
  return db.$transaction(async (tx) => {
    // One membership change at a time per project: two owners inviting the same address at
    // once end with one pending invitation, not two.
    await lockMemberships(tx, projectId);
    const now = new Date();
    // Whatever happens next supersedes an earlier invitation to this address.
    await tx.projectInvitation.updateMany({ where: { projectId, email, acceptedAt: null, revokedAt: null }, data: { revokedAt: now } });

    const user = await tx.user.findUnique({ where: { email } });
    if (user) {
      const existing = await tx.member.findUnique({ where: { projectId_userId: { projectId, userId: user.id } } });
      if (existing) {
        throw new AppError("CONFLICT", `${email} is already a member of this project (${existing.role})`, {
          fieldIssues: [{ path: ["email"], message: `already a member of this project (${existing.role}); change their role in the list instead` }],
        });
      }
      const member = await tx.member.create({ data: { projectId, userId: user.id, role } });
      return { kind: "added", member: { id: member.id, userId: user.id, name: user.name, email: user.email, role: member.role, joinedAt: member.createdAt } };
    }

    const { secret, hash } = newSecret("vinv_");
    const invitation = await tx.projectInvitation.create({
      data: { projectId, email, role, tokenHash: hash, invitedById: inviterId, expiresAt: new Date(now.getTime() + INVITATION_LIFETIME_MS) },
      include: withInviter,
    });
    return { kind: "invited", invitation: toRow(invitation, now), path: `/invite/${secret}` };
  });
}

/** Invitations nobody has accepted or revoked yet, newest first; expired ones say so. */
export async function listPendingInvitations(db: Db, projectId: string): Promise<InvitationRow[]> {
  const invitations = await db.projectInvitation.findMany({
    where: { projectId, acceptedAt: null, revokedAt: null },
    orderBy: { createdAt: "desc" },
    include: withInviter,
  });
  const now = new Date();
  return invitations.map((invitation) => toRow(invitation, now));
}

export async function revokeInvitation(db: Db, projectId: string, invitationId: string): Promise<void> {
  const { count } = await db.projectInvitation.updateMany({
    where: { id: invitationId, projectId, acceptedAt: null, revokedAt: null },
    data: { revokedAt: new Date() },
  });
  if (count === 0) throw new AppError("NOT_FOUND", "No pending invitation with that id in this project");
}

export interface InvitationView {
  projectName: string;
  projectSlug: string;
  role: MemberRole;
  email: string;
  invitedBy: string | null;
  expiresAt: Date;
  state: InvitationState;
  /** Whether the invited address has an account already: then the page asks to sign in. */
  accountExists: boolean;
  /** Who the browser is signed in as, if anyone, so the page can tell a wrong account. */
  signedInEmail: string | null;
}

/** What the public invitation page shows. The token is the only key; an unknown one is 404. */
export async function viewInvitation(db: Db, token: string, signedIn: SessionUser | null): Promise<InvitationView> {
  const invitation = await db.projectInvitation.findUnique({
    where: { tokenHash: hashSecret(token) },
    include: { project: { select: { name: true, slug: true } }, ...withInviter },
  });
  if (!invitation) throw notFound();
  const accountExists = (await db.user.count({ where: { email: invitation.email } })) > 0;
  return {
    projectName: invitation.project.name,
    projectSlug: invitation.project.slug,
    role: invitation.role,
    email: invitation.email,
    invitedBy: invitation.invitedBy ? personLabel(invitation.invitedBy) : null,
    expiresAt: invitation.expiresAt,
    state: stateOf(invitation, new Date()),
    accountExists,
    signedInEmail: signedIn?.email ?? null,
  };
}

export interface AcceptedInvitation {
  projectSlug: string;
  projectName: string;
  role: MemberRole;
  email: string;
  /** True when this call created the account: the browser then signs in with its password. */
  accountCreated: boolean;
}

/**
 * Joins the project the token invites to. Signed in as the invited address: that account joins.
 * Signed out with no account for the address: `account` creates it. The account, the membership
 * and "accepted" are written together or not at all.
 */
export async function acceptInvitation(db: Db, token: string, signedIn: SessionUser | null, account: TNewAccount | undefined): Promise<AcceptedInvitation> {
  const tokenHash = hashSecret(token);
  // Judged and hashed before the transaction (auth/credentials.ts); only a signed-out caller's counts.
  const newAccount = account && !signedIn ? await prepareNewAccount(account) : undefined;
  return db.$transaction(async (tx) => {
    // The same link opened twice at once: the second waits here, then finds it accepted.
    await tx.$queryRaw`SELECT id FROM "ProjectInvitation" WHERE "tokenHash" = ${tokenHash} FOR UPDATE`;
    const invitation = await tx.projectInvitation.findUnique({ where: { tokenHash }, include: { project: { select: { id: true, name: true, slug: true } } } });
    if (!invitation) throw notFound();
    refuseUnlessValid(stateOf(invitation, new Date()));

    const { userId, accountCreated } = await joiningUser(tx, invitation.email, signedIn, newAccount);
    const existing = await tx.member.findUnique({ where: { projectId_userId: { projectId: invitation.projectId, userId } } });
    if (existing) throw new AppError("CONFLICT", `You are already a member of "${invitation.project.name}" (${existing.role})`);
    await tx.member.create({ data: { projectId: invitation.projectId, userId, role: invitation.role } });
    await tx.projectInvitation.update({ where: { id: invitation.id }, data: { acceptedAt: new Date() } });
    return { projectSlug: invitation.project.slug, projectName: invitation.project.name, role: invitation.role, email: invitation.email, accountCreated };
  });
}

async function joiningUser(tx: Prisma.TransactionClient, email: string, signedIn: SessionUser | null, account: PreparedAccount | undefined) {
  if (signedIn) {
    if (signedIn.email.toLowerCase() !== email) {
      throw new AppError("FORBIDDEN", `This invitation is for ${email}, but you are signed in as ${signedIn.email}. Sign out, then open the link again.`);
    }
    return { userId: signedIn.id, accountCreated: false };
  }
  if (await tx.user.findUnique({ where: { email }, select: { id: true } })) {
    throw new AppError("UNAUTHORIZED", `An account for ${email} already exists: sign in as ${email} to accept this invitation`);
  }
  if (!account) {
    throw badInput([
      { path: ["account", "name"], message: "name is required" },
      { path: ["account", "password"], message: "password is required" },
    ]);
  }
  if (account.email !== email) throw badInput([{ path: ["account", "email"], message: `this invitation is for ${email}` }]);
  const user = await createUserWithPassword(tx, account);
  return { userId: user.id, accountCreated: true };
}

function refuseUnlessValid(state: InvitationState): void {
  if (state === "accepted") throw new AppError("CONFLICT", "This invitation has already been accepted; sign in to open the project");
  if (state === "revoked") throw new AppError("CONFLICT", "This invitation was withdrawn or replaced by a newer one; ask a project owner for a new link");
  if (state === "expired") throw new AppError("CONFLICT", "This invitation has expired; ask a project owner for a new link");
}

function stateOf(invitation: { acceptedAt: Date | null; revokedAt: Date | null; expiresAt: Date }, now: Date): InvitationState {
  if (invitation.acceptedAt) return "accepted";
  if (invitation.revokedAt) return "revoked";
  return invitation.expiresAt.getTime() <= now.getTime() ? "expired" : "valid";
}

type StoredInvitation = { id: string; email: string; role: MemberRole; createdAt: Date; expiresAt: Date; invitedBy: { name: string; email: string } | null };

function toRow(invitation: StoredInvitation, now: Date): InvitationRow {
  return {
    id: invitation.id,
    email: invitation.email,
    role: invitation.role,
    invitedBy: invitation.invitedBy ? personLabel(invitation.invitedBy) : null,
    createdAt: invitation.createdAt,
    expiresAt: invitation.expiresAt,
    state: invitation.expiresAt.getTime() <= now.getTime() ? "expired" : "valid",
  };
}

function notFound(): AppError {
  return new AppError("NOT_FOUND", "This invitation link is not valid; check that it was copied whole, or ask a project owner for a new one");
}
