"use client";
// The members page: who is in the project, and for owners the invite form and pending
// invitations (revoked or, once expired, removed). What a role may not do is not offered at all.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { formatDateTime, plural } from "~/components/format";
import { RoleBadge } from "~/components/projects/role-badge";
import { QueryStatus } from "~/components/query-status";
import { RevokeTable } from "~/components/secrets/revoke-table";
import { useTRPC } from "~/components/trpc/react";
import type { MemberRole } from "~/server/access/project-access";
import { InviteForm } from "./invite-form";
import { LeaveProjectButton } from "./leave-project-button";
import { MembersTable } from "./members-table";

export function MembersPanel({ projectSlug, projectName, role }: { projectSlug: string; projectName: string; role: MemberRole }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const isOwner = role === "owner";
  const members = useQuery(trpc.member.list.queryOptions({ projectSlug }));
  const invitations = useQuery({ ...trpc.member.invitations.queryOptions({ projectSlug }), enabled: isOwner });
  const revokeInvitation = useMutation(trpc.member.revokeInvitation.mutationOptions());
  const [actionError, setActionError] = useState<string>();
  const refresh = async () => {
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: trpc.member.list.queryKey({ projectSlug }) }),
      isOwner ? queryClient.invalidateQueries({ queryKey: trpc.member.invitations.queryKey({ projectSlug }) }) : null,
    ]);
  };

  return (
    <>
      {isOwner ? <InviteForm projectSlug={projectSlug} onChanged={refresh} /> : null}

      {actionError ? (
        <div className="alert" role="alert" style={{ marginBottom: "1rem" }}>
          {actionError}
        </div>
      ) : null}

      <section className="card" aria-labelledby="members-heading">
        <h2 id="members-heading">Members {members.data ? <span className="muted small">({plural(members.data.members.length, "member")})</span> : null}</h2>
        <QueryStatus query={members} />
        {members.data ? (
          <MembersTable
            projectSlug={projectSlug}
            members={members.data.members}
            currentUserId={members.data.currentUserId}
            canManage={isOwner}
            onChanged={refresh}
            onError={setActionError}
          />
        ) : null}
        {isOwner ? null : <p className="muted small">Only owners invite people and change roles.</p>}
      </section>

      {isOwner ? (
        // The link itself is never shown again: to resend, invite the address again, which
        // replaces the old link.
        <RevokeTable
          title="Pending invitations"
          rows={invitations}
          empty="No pending invitations."
          columns={[
            {
              header: "Invitation",
              cell: (invitation) => (
                <>
                  <div className="member-email">{invitation.email}</div>
                  <div className="muted small">
                    {invitation.invitedBy ? `invited by ${invitation.invitedBy} · ` : null}
                    {invitation.state === "expired" ? <span className="badge warn">expired</span> : `expires ${formatDateTime(invitation.expiresAt)}`}
                  </div>
                </>
              ),
            },
            { header: "Role", cell: (invitation) => <RoleBadge role={invitation.role} /> },
          ]}
          rowName={(invitation) => `invitation for ${invitation.email}`}
          revoke={{
            offered: () => true,
            // An expired invitation is only cleared away: nothing to confirm.
            text: (invitation) => (invitation.state === "expired" ? "Remove" : "Revoke"),
            confirm: (invitation) => (invitation.state === "valid" ? `Revoke the invitation for ${invitation.email}? Its link stops working at once.` : null),
            run: (invitation) => revokeInvitation.mutateAsync({ projectSlug, invitationId: invitation.id }),
          }}
          onRevoked={refresh}
        />
      ) : null}

      <section className="card" aria-labelledby="leave-heading">
        <h2 id="leave-heading">Leave this project</h2>
        <p className="muted small">You lose access to its experiments and results until an owner invites you again.</p>
        <LeaveProjectButton projectSlug={projectSlug} projectName={projectName} />
      </section>
    </>
  );
}
