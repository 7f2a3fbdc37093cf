import { ZComparisonRef } from "../../schemas/comparison";
import { ZCreateExperiment, ZExperimentRef, ZUpdateExperiment } from "../../schemas/experiment";
import { getExperimentResults } from "../../services/charts";
import { getComparison } from "../../services/comparison";
import { ZProjectRef } from "../../schemas/project";
import { createExperiment, deleteExperiment, getExperiment, listExperiments, updateExperiment } from "../../services/experiments";
import { createTRPCRouter, publicProcedure } from "../trpc";

export const experimentRouter = createTRPCRouter({
  list: publicProcedure.input(ZProjectRef).query(({ ctx, input }) => listExperiments(ctx.db, input.projectSlug)),
  get: publicProcedure.input(ZExperimentRef).query(({ ctx, input }) => getExperiment(ctx.db, input.projectSlug, input.experimentSlug)),
  create: publicProcedure
    .input(ZCreateExperiment)
    .mutation(({ ctx, input }) => createExperiment(ctx.db, input.projectSlug, input.experiment)),
  update: publicProcedure
    .input(ZUpdateExperiment)
    .mutation(({ ctx, input }) => updateExperiment(ctx.db, input.projectSlug, input.experimentSlug, input.experiment)),
  comparison: publicProcedure
    .input(ZComparisonRef)
    .query(({ ctx, input }) => getComparison(ctx.db, { projectSlug: input.projectSlug }, input.experimentSlug, input.baseline)),
  /** The comparison and its charts computed once, for the experiment page. */
  results: publicProcedure
    .input(ZComparisonRef)
    .query(({ ctx, input }) => getExperimentResults(ctx.db, { projectSlug: input.projectSlug }, input.experimentSlug, input.baseline)),
  delete: publicProcedure.input(ZExperimentRef).mutation(({ ctx, input }) => deleteExperiment(ctx.db, input.projectSlug, input.experimentSlug)),
});
