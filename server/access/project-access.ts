// Project membership and roles, checked once per procedure before any service runs.
// viewer reads; member also creates experiments, runs, keys, share links and agent tokens;
// owner also manages members and the project itself.
import type { Db } from "../db/client";
import type { MemberRole } from "../db/generated/enums";
import { AppError } from "../core/errors";

export type { MemberRole };

const rank: Record<MemberRole, number> = { viewer: 1, member: 2, owner: 3 };

export function roleAtLeast(role: MemberRole, needed: MemberRole): boolean {
  return rank[role] >= rank[needed];
}

export interface ProjectAccess {
  projectId: string;
  projectSlug: string;
  role: MemberRole;
}

/**
 * The caller's role in the project, if it is at least `needed`. A project the caller is not a
 * member of answers exactly like one that does not exist, so slugs cannot be probed.
 */
export async function requireProjectRole(db: Db, userId: string, projectSlug: string, needed: MemberRole): Promise<ProjectAccess> {
  const access = await projectMembership(db, userId, projectSlug);
  requireRole(access, needed);
  return access;
}

/** The caller's membership of the project (NOT_FOUND when there is none, as for no project). */
export async function projectMembership(db: Db, userId: string, projectSlug: string): Promise<ProjectAccess> {
  const membership = await db.member.findFirst({ where: { userId, project: { slug: projectSlug } }, select: { role: true, projectId: true } });
  if (!membership) throw new AppError("NOT_FOUND", `No project "${projectSlug}"`);
  return { projectId: membership.projectId, projectSlug, role: membership.role };
}

/** FORBIDDEN unless the membership's role is at least `needed`. */
export function requireRole(access: ProjectAccess, needed: MemberRole): void {
  if (!roleAtLeast(access.role, needed)) {
    throw new AppError("FORBIDDEN", `You are a ${access.role} of "${access.projectSlug}"; this needs the ${needed} role or higher`);
  }
}
