import { getHistory } from "../../history/history";
import { getHistoryOverview } from "../../history/overview";
import { listOpenChangePoints } from "../../history/open-change-points";
import { reviewChangePoint } from "../../history/change-point-review";
import { ZHistoryRef, ZReviewChangePoint, ZSetRepositoryUrl } from "../../schemas/history";
import { ZProjectRef } from "../../schemas/project";
import { setRepositoryUrl } from "../../projects/projects";
import { createTRPCRouter, projectProcedure } from "../trpc";

export const historyRouter = createTRPCRouter({
  /** A metric's per-commit history of one variant and branch, with its change points. */
  get: projectProcedure("viewer")
    .input(ZHistoryRef)
    .query(async ({ ctx, input }) => {
      const { projectSlug: _p, experimentSlug, ...query } = input;
      return { ...(await getHistory(ctx.db, ctx.access.projectId, experimentSlug, query)), role: ctx.access.role };
    }),
  /** The project's experiments with a history, and their open change points. */
  overview: projectProcedure("viewer")
    .input(ZProjectRef)
    .query(({ ctx }) => getHistoryOverview(ctx.db, ctx.access.projectId)),
  /** Change points nobody has acknowledged or dismissed yet (the Alerts page lists them too). */
  openChangePoints: projectProcedure("viewer")
    .input(ZProjectRef)
    .query(({ ctx }) => listOpenChangePoints(ctx.db, ctx.access.projectId)),
  review: projectProcedure("member")
    .input(ZReviewChangePoint)
    .mutation(({ ctx, input }) => reviewChangePoint(ctx.db, ctx.access.projectId, input.id, input.status, ctx.user.id)),
  setRepositoryUrl: projectProcedure("owner")
    .input(ZSetRepositoryUrl)
    .mutation(({ ctx, input }) => setRepositoryUrl(ctx.db, ctx.access.projectId, input.repositoryUrl)),
});
