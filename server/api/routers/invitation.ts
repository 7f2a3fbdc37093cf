// The invitation link's own page. Public on purpose: the link's secret is what authorises it,
// and the person opening it may not have an account yet.
import { ZAcceptInvitation, ZInvitationToken } from "../../schemas/member";
import { acceptInvitation, viewInvitation } from "../../projects/invitations";
import { createTRPCRouter, publicProcedure } from "../trpc";

export const invitationRouter = createTRPCRouter({
  view: publicProcedure.input(ZInvitationToken).query(({ ctx, input }) => viewInvitation(ctx.db, input.token, ctx.user)),
  accept: publicProcedure.input(ZAcceptInvitation).mutation(({ ctx, input }) => acceptInvitation(ctx.db, input.token, ctx.user, input.account)),
});
