// Share links: members make, list, re-date and revoke them; `view` is what the public page
// /s/<token> calls in-process. Over HTTP `view` answers exactly what that page shows to anyone
// holding the token, and nothing to anyone else.
import { ZCreateShareLink, ZListShareLinks, ZSetShareLinkExpiry, ZShareLinkRef, ZViewShareLink } from "../../schemas/share-link";
import { createShareLink, listShareLinks, revokeShareLink, setShareLinkExpiry, viewShareLink } from "../../reports/share-links";
import { createTRPCRouter, projectProcedure, publicProcedure } from "../trpc";

export const shareRouter = createTRPCRouter({
  create: projectProcedure("member")
    .input(ZCreateShareLink)
    .mutation(({ ctx, input }) => createShareLink(ctx.db, ctx.access, ctx.user.id, input)),
  list: projectProcedure("member")
    .input(ZListShareLinks)
    .query(({ ctx, input }) => listShareLinks(ctx.db, ctx.access, input.experimentSlug)),
  revoke: projectProcedure("member")
    .input(ZShareLinkRef)
    .mutation(({ ctx, input }) => revokeShareLink(ctx.db, ctx.access, input.linkId)),
  setExpiry: projectProcedure("member")
    .input(ZSetShareLinkExpiry)
    .mutation(({ ctx, input }) => setShareLinkExpiry(ctx.db, ctx.access, input.linkId, input.expiresAt)),
  view: publicProcedure.input(ZViewShareLink).query(({ ctx, input }) => viewShareLink(ctx.db, input.token, { countView: input.countView })),
});
