"use client";
// The members page: who is in the project, and for owners the invite form and pending
// invitations. What a role may not do is not offered at all.
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { plural } from "~/components/format";
import { useTRPC } from "~/components/trpc/react";
import type { MemberRole } from "~/server/access/project-access";
import { InvitationsTable } from "./invitations-table";
import { InviteForm } from "./invite-form";
import { LeaveProjectButton } from "./leave-project-button";
import { MembersTable } from "./members-table";

export function MembersPanel({ projectSlug, projectName, role }: { projectSlug: string; projectName: string; role: MemberRole }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const isOwner = role === "owner";
  const members = useQuery(trpc.member.list.queryOptions({ projectSlug }));
  const invitations = useQuery({ ...trpc.member.invitations.queryOptions({ projectSlug }), enabled: isOwner });
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
        <h2 id="members-heading">
          Members {members.data ? <span className="muted small">({plural(members.data.members.length, "member")})</span> : null}
        </h2>
        {members.isPending ? <p className="muted">Loading…</p> : null}
        {members.error ? <p className="error" role="alert">{members.error.message}</p> : null}
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
        <section className="card" aria-labelledby="invitations-heading">
          <h2 id="invitations-heading">Pending invitations</h2>
          {invitations.isPending ? <p className="muted">Loading…</p> : null}
          {invitations.error ? <p className="error" role="alert">{invitations.error.message}</p> : null}
          {invitations.data ? <InvitationsTable projectSlug={projectSlug} invitations={invitations.data} onChanged={refresh} onError={setActionError} /> : null}
        </section>
      ) : null}

      <section className="card" aria-labelledby="leave-heading">
        <h2 id="leave-heading">Leave this project</h2>
        <p className="muted small">You lose access to its experiments and results until an owner invites you again.</p>
        <LeaveProjectButton projectSlug={projectSlug} projectName={projectName} />
      </section>
    </>
  );
}
