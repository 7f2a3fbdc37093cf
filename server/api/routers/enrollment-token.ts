import { ZCreateEnrollmentToken, ZRevokeEnrollmentToken } from "../../schemas/enrollment-token";
import { ZProjectRef } from "../../schemas/project";
import { createEnrollmentToken, listEnrollmentTokens, revokeEnrollmentToken } from "../../agents/enrollment-tokens";
import { createTRPCRouter, projectProcedure } from "../trpc";

// Members manage a project's agent enrollment tokens; viewers do not even see the list, since
// names and prefixes tell which machines may join.
export const enrollmentTokenRouter = createTRPCRouter({
  list: projectProcedure("member")
    .input(ZProjectRef)
    .query(({ ctx }) => listEnrollmentTokens(ctx.db, ctx.access.projectId)),
  create: projectProcedure("member")
    .input(ZCreateEnrollmentToken)
    .mutation(({ ctx, input }) => createEnrollmentToken(ctx.db, ctx.access.projectId, ctx.user.id, input)),
  revoke: projectProcedure("member")
    .input(ZRevokeEnrollmentToken)
    .mutation(({ ctx, input }) => revokeEnrollmentToken(ctx.db, ctx.access.projectId, input.tokenId)),
});
