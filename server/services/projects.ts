// Projects: a team's space. (Members, roles and sign-in arrive with accounts.)
import type { Db } from "../db/client";
import { isUniqueViolation } from "../db/prisma-errors";
import { AppError } from "../errors";
import { slugify } from "../schemas/common";
import type { TProjectInput } from "../schemas/project";

export interface ProjectSummary {
  id: string;
  slug: string;
  name: string;
  description: string | null;
  experimentCount: number;
}

export async function listProjects(db: Db): Promise<ProjectSummary[]> {
  const projects = await db.project.findMany({
    orderBy: { name: "asc" },
    include: { _count: { select: { experiments: true } } },
  });
  return projects.map(({ _count, ...project }) => ({
    id: project.id,
    slug: project.slug,
    name: project.name,
    description: project.description,
    experimentCount: _count.experiments,
  }));
}

export async function getProjectBySlug(db: Db, slug: string) {
  const project = await db.project.findUnique({ where: { slug } });
  if (!project) throw new AppError("NOT_FOUND", `No project "${slug}"`);
  return project;
}

export async function createProject(db: Db, input: TProjectInput) {
  const slug = input.slug || slugify(input.name);
  if (!slug) {
    throw new AppError("BAD_REQUEST", "Invalid input — slug: could not derive a slug from the name; enter one", {
      fieldIssues: [{ path: ["slug"], message: "could not derive a slug from the name; enter one" }],
    });
  }
  try {
    return await db.project.create({ data: { slug, name: input.name, description: input.description || null } });
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
