import { cancelBatch, cancelJob, getJob, listBatches, retryFailed, startBatch } from "../../agents/batches";
import { estimateJobSeconds } from "../../agents/estimate";
import { ZExperimentRef } from "../../schemas/experiment";
import { ZBatchesQuery, ZBatchRef, ZJobRef, ZNoiseFloorQuery, ZRetryFailed, ZStartBatch } from "../../schemas/jobs";
import { experimentNoiseFloor } from "../../comparison/noise-floor";
import { createTRPCRouter, projectProcedure } from "../trpc";

// "Run" on an experiment and what follows: members start, cancel and retry batches; viewers
// watch their progress.
export const jobRouter = createTRPCRouter({
  startBatch: projectProcedure("member")
    .input(ZStartBatch)
    .mutation(({ ctx, input: { projectSlug: _slug, ...input } }) => startBatch(ctx.db, ctx.access.projectId, ctx.user.id, input)),
  batches: projectProcedure("viewer")
    .input(ZBatchesQuery)
    .query(({ ctx, input }) => listBatches(ctx.db, ctx.access.projectId, input.experimentSlug, input.limit)),
  /** How long one job of each variant takes (the Run dialog's estimate). */
  estimate: projectProcedure("viewer")
    .input(ZExperimentRef)
    .query(({ ctx, input }) => estimateJobSeconds(ctx.db, ctx.access.projectId, input.experimentSlug)),
  /** The latest A/A batch's floor per metric and agent ("Measure noise", the Run dialog's suggestion); null before one. */
  noiseFloor: projectProcedure("viewer")
    .input(ZNoiseFloorQuery)
    .query(({ ctx, input }) => experimentNoiseFloor(ctx.db, ctx.access.projectId, input.experimentSlug, input.minChangePercent)),
  get: projectProcedure("viewer")
    .input(ZJobRef)
    .query(({ ctx, input }) => getJob(ctx.db, ctx.access.projectId, input.jobId)),
  cancel: projectProcedure("member")
    .input(ZJobRef)
    .mutation(({ ctx, input }) => cancelJob(ctx.db, ctx.access.projectId, input.jobId)),
  cancelBatch: projectProcedure("member")
    .input(ZBatchRef)
    .mutation(({ ctx, input }) => cancelBatch(ctx.db, ctx.access.projectId, input.batchId)),
  retryFailed: projectProcedure("member")
    .input(ZRetryFailed)
    .mutation(({ ctx, input }) => retryFailed(ctx.db, ctx.access.projectId, input.batchId, input.jobId)),
});
