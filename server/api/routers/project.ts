import { ZProjectInput, ZProjectRef } from "../../schemas/project";
import { createProject, getProjectBySlug, listProjects } from "../../services/projects";
import { createTRPCRouter, publicProcedure } from "../trpc";

export const projectRouter = createTRPCRouter({
  list: publicProcedure.query(({ ctx }) => listProjects(ctx.db)),
  bySlug: publicProcedure.input(ZProjectRef).query(({ ctx, input }) => getProjectBySlug(ctx.db, input.projectSlug)),
  create: publicProcedure.input(ZProjectInput).mutation(({ ctx, input }) => createProject(ctx.db, input)),
});
