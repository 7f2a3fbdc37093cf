// A project's members and invitations. Everyone in the project sees who is in it; only owners
// see pending invitations and change anything; anyone may leave.
import { ZProjectRef } from "../../schemas/project";
import { ZChangeMemberRole, ZInviteMember, ZRemoveMember, ZRevokeInvitation } from "../../schemas/member";
import { inviteToProject, listPendingInvitations, revokeInvitation } from "../../projects/invitations";
import { changeMemberRole, leaveProject, listMembers, removeMember } from "../../projects/members";
import { createTRPCRouter, projectProcedure } from "../trpc";

export const memberRouter = createTRPCRouter({
  /** The members, the caller's role (pages offer only what it allows) and who the caller is. */
  list: projectProcedure("viewer")
    .input(ZProjectRef)
    .query(async ({ ctx }) => ({ members: await listMembers(ctx.db, ctx.access.projectId), role: ctx.access.role, currentUserId: ctx.user.id })),
  invitations: projectProcedure("owner")
    .input(ZProjectRef)
    .query(({ ctx }) => listPendingInvitations(ctx.db, ctx.access.projectId)),
  invite: projectProcedure("owner")
    .input(ZInviteMember)
    .mutation(({ ctx, input }) => inviteToProject(ctx.db, ctx.access.projectId, ctx.user.id, { email: input.email, role: input.role })),
  changeRole: projectProcedure("owner")
    .input(ZChangeMemberRole)
    .mutation(({ ctx, input }) => changeMemberRole(ctx.db, ctx.access.projectId, input.memberId, input.role)),
  remove: projectProcedure("owner")
    .input(ZRemoveMember)
    .mutation(({ ctx, input }) => removeMember(ctx.db, ctx.access.projectId, input.memberId)),
  revokeInvitation: projectProcedure("owner")
    .input(ZRevokeInvitation)
    .mutation(({ ctx, input }) => revokeInvitation(ctx.db, ctx.access.projectId, input.invitationId)),
  leave: projectProcedure("viewer")
    .input(ZProjectRef)
    .mutation(({ ctx }) => leaveProject(ctx.db, ctx.access.projectId, ctx.user.id)),
});
