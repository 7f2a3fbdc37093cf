import { ZCreateApiKey, ZRevokeApiKey } from "../../schemas/api-key";
import { ZProjectRef } from "../../schemas/project";
import { createApiKey, listApiKeys, revokeApiKey } from "../../projects/api-keys";
import { createTRPCRouter, projectProcedure } from "../trpc";

export const apiKeyRouter = createTRPCRouter({
  list: projectProcedure("member")
    .input(ZProjectRef)
    .query(({ ctx, input }) => listApiKeys(ctx.db, input.projectSlug)),
  create: projectProcedure("member")
    .input(ZCreateApiKey)
    .mutation(({ ctx, input }) => createApiKey(ctx.db, input.projectSlug, input.name, ctx.user.id, input.scope)),
  revoke: projectProcedure("member")
    .input(ZRevokeApiKey)
    .mutation(({ ctx, input }) => revokeApiKey(ctx.db, input.projectSlug, input.keyId)),
});
