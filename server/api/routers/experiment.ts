import { ZComparisonRef } from "../../schemas/comparison";
import { ZCreateExperiment, ZExperimentRef, ZUpdateExperiment } from "../../schemas/experiment";
import { getExperimentResults } from "../../services/charts";
import { getComparison } from "../../services/comparison";
import { ZProjectRef } from "../../schemas/project";
import { createExperiment, deleteExperiment, getExperiment, listExperiments, updateExperiment } from "../../services/experiments";
import { createTRPCRouter, projectProcedure } from "../trpc";

export const experimentRouter = createTRPCRouter({
  // `role` is the caller's role in the project: pages offer only the actions it allows.
  list: projectProcedure("viewer")
    .input(ZProjectRef)
    .query(async ({ ctx, input }) => ({ ...(await listExperiments(ctx.db, input.projectSlug)), role: ctx.access.role })),
  get: projectProcedure("viewer")
    .input(ZExperimentRef)
    .query(async ({ ctx, input }) => ({ ...(await getExperiment(ctx.db, input.projectSlug, input.experimentSlug)), role: ctx.access.role })),
  create: projectProcedure("member")
    .input(ZCreateExperiment)
    .mutation(({ ctx, input }) => createExperiment(ctx.db, input.projectSlug, input.experiment)),
  update: projectProcedure("member")
    .input(ZUpdateExperiment)
    .mutation(({ ctx, input }) => updateExperiment(ctx.db, input.projectSlug, input.experimentSlug, input.experiment)),
  comparison: projectProcedure("viewer")
    .input(ZComparisonRef)
    .query(({ ctx, input }) => getComparison(ctx.db, { projectSlug: input.projectSlug }, input.experimentSlug, input.baseline)),
  /** The comparison and its charts computed once, for the experiment page. */
  results: projectProcedure("viewer")
    .input(ZComparisonRef)
    .query(({ ctx, input }) => getExperimentResults(ctx.db, { projectSlug: input.projectSlug }, input.experimentSlug, input.baseline)),
  delete: projectProcedure("member").input(ZExperimentRef).mutation(({ ctx, input }) => deleteExperiment(ctx.db, input.projectSlug, input.experimentSlug)),
});
