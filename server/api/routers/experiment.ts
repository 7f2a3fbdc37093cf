import { ZComparisonRef } from "../../schemas/comparison";
import { ZCreateExperiment, ZExperimentRef, ZUpdateExperiment } from "../../schemas/experiment";
import { ZMetricResultsPageRef, ZRunRef, ZRunsPageRef } from "../../schemas/experiment-runs";
import { runShards } from "../../runs/run-shards";
import { getExperimentResults } from "../../comparison/charts";
import { getComparison } from "../../comparison/comparison";
import { ZProjectRef } from "../../schemas/project";
import { listMetricResults, listRuns } from "../../runs/experiment-runs";
import { createExperiment, deleteExperiment, getExperiment, listExperiments, updateExperiment } from "../../experiments/experiments";
import { createTRPCRouter, projectProcedure } from "../trpc";

export const experimentRouter = createTRPCRouter({
  // `role` is the caller's role in the project: pages offer only the actions it allows.
  list: projectProcedure("viewer")
    .input(ZProjectRef)
    .query(async ({ ctx, input }) => ({ ...(await listExperiments(ctx.db, input.projectSlug)), role: ctx.access.role })),
  get: projectProcedure("viewer")
    .input(ZExperimentRef)
    .query(async ({ ctx, input }) => ({ ...(await getExperiment(ctx.db, input.projectSlug, input.experimentSlug)), role: ctx.access.role })),
  /** A page of the experiment's runs, newest first. */
  runs: projectProcedure("viewer")
    .input(ZRunsPageRef)
    .query(({ ctx, input }) => listRuns(ctx.db, ctx.access.projectId, input.experimentSlug, input)),
  /** The per-agent figures of a run several agents made together (null for one agent's run). */
  runShards: projectProcedure("viewer")
    .input(ZRunRef)
    .query(({ ctx, input }) => runShards(ctx.db, ctx.access.projectId, input.experimentSlug, input.runId)),
  /** A page of one metric's stored results, by variant and repetition. */
  metricResults: projectProcedure("viewer")
    .input(ZMetricResultsPageRef)
    .query(({ ctx, input }) => listMetricResults(ctx.db, ctx.access.projectId, input.experimentSlug, input.metricKey, input)),
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
  delete: projectProcedure("member")
    .input(ZExperimentRef)
    .mutation(({ ctx, input }) => deleteExperiment(ctx.db, input.projectSlug, input.experimentSlug)),
});
