// Projects: a team's space. Who may see or change one is decided before these run
// (server/access); these only list what the caller belongs to and change what they were given.
import type { MemberRole } from "../access/project-access";
import type { Db } from "../db/client";
import { isUniqueViolation } from "../db/prisma-errors";
import { AppError } from "../core/errors";
import { forgetKeptApiKeys } from "./api-key-cache";
import { slugify } from "../schemas/common";
import type { TProjectInput } from "../schemas/project";

export interface ProjectSummary {
  id: string;
  slug: string;
  name: string;
  description: string | null;
  experimentCount: number;
  role: MemberRole;
}

/** The projects the user is a member of, with their role in each. */
export async function listProjectsOf(db: Db, userId: string): Promise<ProjectSummary[]> {
  const memberships = await db.member.findMany({
    where: { userId },
    orderBy: { project: { name: "asc" } },
    include: { project: { include: { _count: { select: { experiments: true } } } } },
  });
  return memberships.map(({ role, project }) => ({
    id: project.id,
    slug: project.slug,
    name: project.name,
    description: project.description,
    experimentCount: project._count.experiments,
    role,
  }));
}

export async function getProjectBySlug(db: Db, slug: string) {
  const project = await db.project.findUnique({ where: { slug } });
  if (!project) throw new AppError("NOT_FOUND", `No project "${slug}"`);
  return project;
}

/** Creates a project; `ownerId`, when given, becomes its first owner in the same transaction. */
export async function createProject(db: Db, input: TProjectInput, ownerId?: string) {
  const slug = input.slug || slugify(input.name);
  if (!slug) {
    throw new AppError("BAD_REQUEST", "Invalid input — slug: could not derive a slug from the name; enter one", {
      fieldIssues: [{ path: ["slug"], message: "could not derive a slug from the name; enter one" }],
    });
  }
  try {
    return await db.project.create({
      data: {
        slug,
        name: input.name,
        description: input.description || null,
        ...(ownerId ? { members: { create: { userId: ownerId, role: "owner" } } } : {}),
      },
    });
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw new AppError("CONFLICT", `A project with slug "${slug}" already exists`, {
        fieldIssues: [{ path: ["slug"], message: `a project with slug "${slug}" already exists` }],
        cause: error,
      });
    }
    throw error;
  }
}

/** Renames or re-describes a project; the slug (its URLs and API paths) stays. */
export async function updateProject(db: Db, projectId: string, input: Pick<TProjectInput, "name" | "description">) {
  return db.project.update({ where: { id: projectId }, data: { name: input.name, description: input.description || null } });
}

/** Sets where the project's commits can be browsed ("" clears it); the history page links commits there. */
export async function setRepositoryUrl(db: Db, projectId: string, repositoryUrl: string) {
  const project = await db.project.update({ where: { id: projectId }, data: { repositoryUrl: repositoryUrl || null }, select: { repositoryUrl: true } });
  return { repositoryUrl: project.repositoryUrl };
}

/** Deletes a project and everything in it (experiments, runs, keys, links, members). */
export async function deleteProject(db: Db, projectId: string) {
  await db.project.delete({ where: { id: projectId } });
  // Its keys went with it: this process forgets them now, the others when they hear it.
  forgetKeptApiKeys();
}
