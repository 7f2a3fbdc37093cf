import { ZDeleteProject, ZProjectInput, ZUpdateProject } from "../../schemas/project";
import { createProject, deleteProject, getProjectBySlug, listProjectsOf, updateProject } from "../../projects/projects";
import { authedProcedure, createTRPCRouter, projectProcedure } from "../trpc";

export const projectRouter = createTRPCRouter({
  list: authedProcedure.query(({ ctx }) => listProjectsOf(ctx.db, ctx.user.id)),
  /** The project and the caller's role in it (pages show or hide actions by it). */
  bySlug: projectProcedure("viewer").query(async ({ ctx }) => ({ ...(await getProjectBySlug(ctx.db, ctx.access.projectSlug)), role: ctx.access.role })),
  create: authedProcedure.input(ZProjectInput).mutation(({ ctx, input }) => createProject(ctx.db, input, ctx.user.id)),
  update: projectProcedure("owner")
    .input(ZUpdateProject)
    .mutation(({ ctx, input }) => updateProject(ctx.db, ctx.access.projectId, input)),
  delete: projectProcedure("owner")
    .input(ZDeleteProject)
    .mutation(({ ctx }) => deleteProject(ctx.db, ctx.access.projectId)),
});
