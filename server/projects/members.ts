// Who belongs to a project and with which role. The caller's own role was checked before these
// run (server/access); they only look inside the project they are given, so an id from another
// project is "not found" and changes nothing. A project always keeps at least one owner.
import type { MemberRole } from "../access/project-access";
import type { Db, Prisma } from "../db/client";
import { AppError } from "../core/errors";
import { personLabel } from "../display/display";

export interface MemberRow {
  id: string;
  userId: string;
  name: string;
  email: string;
  role: MemberRole;
  joinedAt: Date;
}

const roleOrder: Record<MemberRole, number> = { owner: 0, member: 1, viewer: 2 };

/** Members, owners first, then by name. */
export async function listMembers(db: Db, projectId: string): Promise<MemberRow[]> {
  const members = await db.member.findMany({ where: { projectId }, include: { user: { select: { name: true, email: true } } } });
  return members
    .map((m) => ({ id: m.id, userId: m.userId, name: m.user.name, email: m.user.email, role: m.role, joinedAt: m.createdAt }))
    .sort((a, b) => roleOrder[a.role] - roleOrder[b.role] || a.name.localeCompare(b.name) || a.email.localeCompare(b.email));
}

export async function changeMemberRole(db: Db, projectId: string, memberId: string, role: MemberRole): Promise<MemberRow> {
  return db.$transaction(async (tx) => {
    await lockMemberships(tx, projectId);
    const member = await findMember(tx, projectId, memberId);
    if (member.role === "owner" && role !== "owner")
      await requireAnotherOwner(tx, projectId, `${personLabel(member.user)} is the only owner of this project; make another member an owner first`);
    const updated = await tx.member.update({ where: { id: member.id }, data: { role }, include: { user: { select: { name: true, email: true } } } });
    return { id: updated.id, userId: updated.userId, name: updated.user.name, email: updated.user.email, role: updated.role, joinedAt: updated.createdAt };
  });
}

export async function removeMember(db: Db, projectId: string, memberId: string): Promise<void> {
  await db.$transaction(async (tx) => {
    await lockMemberships(tx, projectId);
    const member = await findMember(tx, projectId, memberId);
    if (member.role === "owner")
      await requireAnotherOwner(
        tx,
        projectId,
        `${personLabel(member.user)} is the only owner of this project; make another member an owner before removing them`,
      );
    await tx.member.delete({ where: { id: member.id } });
  });
}

/** The caller leaves the project, whatever their role, unless nobody would own it afterwards. */
export async function leaveProject(db: Db, projectId: string, userId: string): Promise<void> {
  await db.$transaction(async (tx) => {
    await lockMemberships(tx, projectId);
    const member = await tx.member.findUnique({ where: { projectId_userId: { projectId, userId } } });
    if (!member) throw new AppError("NOT_FOUND", "You are not a member of this project");
    if (member.role === "owner") {
      await requireAnotherOwner(
        tx,
        projectId,
        "You are the only owner of this project; make another member an owner before leaving, or delete the project in its settings",
      );
    }
    await tx.member.delete({ where: { id: member.id } });
  });
}

/**
 * Serialises membership changes within one project, so two owners demoting each other at the
 * same moment cannot both see "another owner remains" and leave none. NO KEY UPDATE does not
 * block rows that merely reference the project (new experiments, runs, keys).
 */
export async function lockMemberships(tx: Prisma.TransactionClient, projectId: string): Promise<void> {
  await tx.$queryRaw`SELECT id FROM "Project" WHERE id = ${projectId} FOR NO KEY UPDATE`;
}

async function findMember(tx: Prisma.TransactionClient, projectId: string, memberId: string) {
  const member = await tx.member.findFirst({ where: { id: memberId, projectId }, include: { user: { select: { name: true, email: true } } } });
  if (!member) throw new AppError("NOT_FOUND", "No member with that id in this project");
  return member;
}

async function requireAnotherOwner(tx: Prisma.TransactionClient, projectId: string, message: string): Promise<void> {
  const owners = await tx.member.count({ where: { projectId, role: "owner" } });
  if (owners <= 1) throw new AppError("CONFLICT", message);
}
