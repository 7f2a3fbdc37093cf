// The signed-in user's own account: name and sign-in email (server/auth/account.ts).
import { ZChangeEmail, ZUpdateName } from "../../schemas/auth";
import { changeOwnEmail, updateOwnName } from "../../auth/account";
import { authedProcedure, createTRPCRouter } from "../trpc";

export const accountRouter = createTRPCRouter({
  updateName: authedProcedure.input(ZUpdateName).mutation(({ ctx, input }) => updateOwnName(ctx.db, ctx.user.id, input)),
  changeEmail: authedProcedure.input(ZChangeEmail).mutation(({ ctx, input }) => changeOwnEmail(ctx.db, ctx.user.id, input)),
});
