// Before anyone can sign in: the first owner's one-time setup link. Public on purpose; the link's
// secret is what authorises it, and it stops working once there is a user.
import { ZCompleteSetup, ZSetupToken } from "../../schemas/auth";
import { completeSetup, hasAnyUser, setupLinkState } from "../../auth/installation";
import { createTRPCRouter, publicProcedure } from "../trpc";

export const setupRouter = createTRPCRouter({
  /** Whether the installation still waits for its first owner, and who is signed in. */
  status: publicProcedure.query(async ({ ctx }) => ({ needsSetup: !(await hasAnyUser(ctx.db)), user: ctx.user })),
  linkState: publicProcedure.input(ZSetupToken).query(({ ctx, input }) => setupLinkState(ctx.db, input.token)),
  complete: publicProcedure.input(ZCompleteSetup).mutation(({ ctx, input }) => completeSetup(ctx.db, input.token, input.account)),
});
