// Shapes of project membership: inviting, changing roles, removing, and answering an invitation.
import { z } from "zod";
import { ZEmail, ZPassword, ZPersonName } from "./auth";
import { ZSlug } from "./common";

export const memberRoles = ["owner", "member", "viewer"] as const;
export const ZMemberRole = z.enum(memberRoles, { error: "choose owner, member or viewer" });

/** What each role may do, worded once for the invite form and the members page. */
export const roleDescriptions: Record<(typeof memberRoles)[number], string> = {
  viewer: "reads experiments, runs and comparisons",
  member: "also creates and edits experiments, uploads runs, makes API keys and share links",
  owner: "also manages members and the project's settings",
};

export const ZInviteMember = z.object({ projectSlug: ZSlug, email: ZEmail, role: ZMemberRole });
export type TInviteMember = z.output<typeof ZInviteMember>;

export const ZChangeMemberRole = z.object({ projectSlug: ZSlug, memberId: z.string().min(1), role: ZMemberRole });
export const ZRemoveMember = z.object({ projectSlug: ZSlug, memberId: z.string().min(1) });
export const ZRevokeInvitation = z.object({ projectSlug: ZSlug, invitationId: z.string().min(1) });

export const ZInvitationToken = z.object({ token: z.string().min(1, "the invitation link is incomplete") });

/** The account an invited person creates; the email is the invitation's, not typed again. */
export const ZInvitationAccount = z.object({ name: ZPersonName, password: ZPassword });
export type TInvitationAccount = z.output<typeof ZInvitationAccount>;

/**
 * Accepting: signed in as the invited email, no account needed; otherwise `account` creates one
 * for the invited email.
 */
export const ZAcceptInvitation = ZInvitationToken.extend({ account: ZInvitationAccount.optional() });
