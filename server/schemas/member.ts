// Shapes of project membership: inviting, changing roles, removing, and answering an invitation.
import { z } from "zod";
import { ZEmail, ZNewAccount } from "./auth";
import { ZSlug } from "./common";

export const memberRoles = ["owner", "member", "viewer"] as const;
export const ZMemberRole = z.enum(memberRoles, { error: "choose owner, member or viewer" });

/** What each role may do, worded once for the invite form and the members page. */
export const roleDescriptions: Record<(typeof memberRoles)[number], string> = {
  viewer: "Reads experiments, runs and comparisons; changes nothing.",
  member: "Reads, creates and edits experiments, uploads runs, makes API keys and share links.",
  owner: "Everything a member does, plus inviting and removing people and changing the project's settings.",
};

export const ZInviteMember = z.object({ projectSlug: ZSlug, email: ZEmail, role: ZMemberRole });
export type TInviteMember = z.output<typeof ZInviteMember>;

export const ZChangeMemberRole = z.object({ projectSlug: ZSlug, memberId: z.string().min(1), role: ZMemberRole });
export const ZRemoveMember = z.object({ projectSlug: ZSlug, memberId: z.string().min(1) });
export const ZRevokeInvitation = z.object({ projectSlug: ZSlug, invitationId: z.string().min(1) });

export const ZInvitationToken = z.object({ token: z.string().min(1, "the invitation link is incomplete") });

/**
 * Accepting: signed in as the invited address, no account is needed; otherwise `account` creates
 * one. Its email must be the invited one (the form shows it read-only; password managers want it).
 */
export const ZAcceptInvitation = ZInvitationToken.extend({ account: ZNewAccount.optional() });
export type TAcceptInvitation = z.output<typeof ZAcceptInvitation>;
