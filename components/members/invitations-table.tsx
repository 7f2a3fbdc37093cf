"use client";
// Invitations nobody has answered yet (owners only). The link itself is never shown again: to
// resend, invite the address again, which replaces the old link.
import { useMutation } from "@tanstack/react-query";
import { formatDateTime } from "~/components/format";
import { RoleBadge } from "~/components/projects/role-badge";
import { useTRPC } from "~/components/trpc/react";
import type { InvitationRow } from "~/server/services/invitations";

interface Props {
  projectSlug: string;
  invitations: InvitationRow[];
  onChanged: () => Promise<void>;
  onError: (message: string | undefined) => void;
}

export function InvitationsTable({ projectSlug, invitations, onChanged, onError }: Props) {
  const trpc = useTRPC();
  const revoke = useMutation(trpc.member.revokeInvitation.mutationOptions());

  const onRevoke = async (invitation: InvitationRow) => {
    if (invitation.state === "valid" && !window.confirm(`Revoke the invitation for ${invitation.email}? Its link stops working at once.`)) return;
    onError(undefined);
    try {
      await revoke.mutateAsync({ projectSlug, invitationId: invitation.id });
    } catch (error) {
      onError(error instanceof Error ? error.message : "Something went wrong");
    }
    await onChanged();
  };

  if (invitations.length === 0) return <p className="muted">No pending invitations.</p>;
  return (
    <div className="table-wrap">
      <table aria-label="Pending invitations">
        <thead>
          <tr>
            <th>Invitation</th>
            <th>Role</th>
            <th aria-label="Actions" />
          </tr>
        </thead>
        <tbody>
          {invitations.map((invitation) => (
            <tr key={invitation.id}>
              <td>
                <div className="member-email">{invitation.email}</div>
                <div className="muted small">
                  {invitation.invitedBy ? `invited by ${invitation.invitedBy} · ` : null}
                  {invitation.state === "expired" ? <span className="badge warn">expired</span> : `expires ${formatDateTime(invitation.expiresAt)}`}
                </div>
              </td>
              <td>
                <RoleBadge role={invitation.role} />
              </td>
              <td className="cell-actions">
                <button type="button" className="button small danger" onClick={() => onRevoke(invitation)} disabled={revoke.isPending} aria-label={`Revoke invitation for ${invitation.email}`}>
                  {invitation.state === "expired" ? "Remove" : "Revoke"}
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
