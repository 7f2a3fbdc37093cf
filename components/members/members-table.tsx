"use client";
// The project's members. Owners change roles and remove people here; everyone else reads it.
// The only owner's row offers no way to demote or remove them (the server refuses it anyway).
import { useMutation } from "@tanstack/react-query";
import { formatDateTime } from "~/components/format";
import { RoleBadge } from "~/components/projects/role-badge";
import { useTRPC } from "~/components/trpc/react";
import type { MemberRole } from "~/server/access/project-access";
import { memberRoles } from "~/server/schemas/member";
import type { MemberRow } from "~/server/projects/members";
import { personLabel } from "~/server/display/display";

interface Props {
  projectSlug: string;
  members: MemberRow[];
  currentUserId: string;
  canManage: boolean;
  onChanged: () => Promise<void>;
  onError: (message: string | undefined) => void;
}

export function MembersTable({ projectSlug, members, currentUserId, canManage, onChanged, onError }: Props) {
  const trpc = useTRPC();
  const changeRole = useMutation(trpc.member.changeRole.mutationOptions());
  const remove = useMutation(trpc.member.remove.mutationOptions());
  const ownerCount = members.filter((m) => m.role === "owner").length;
  const busy = changeRole.isPending || remove.isPending;

  const run = async (action: () => Promise<unknown>) => {
    onError(undefined);
    try {
      await action();
    } catch (error) {
      onError(error instanceof Error ? error.message : "Something went wrong");
    }
    await onChanged();
  };
  const onRole = (member: MemberRow, role: MemberRole) => run(() => changeRole.mutateAsync({ projectSlug, memberId: member.id, role }));
  const onRemove = (member: MemberRow) => {
    if (!window.confirm(`Remove ${label(member)} from this project? They lose access at once.`)) return;
    void run(() => remove.mutateAsync({ projectSlug, memberId: member.id }));
  };

  return (
    <div className="table-wrap">
      <table aria-label="Members">
        <thead>
          <tr>
            <th>Member</th>
            <th>Role</th>
            <th data-narrow="hide">Joined</th>
            {canManage ? <th aria-label="Actions" /> : null}
          </tr>
        </thead>
        <tbody>
          {members.map((member) => {
            const onlyOwner = member.role === "owner" && ownerCount === 1;
            const isMe = member.userId === currentUserId;
            return (
              <tr key={member.id}>
                <td>
                  <strong>{personLabel(member)}</strong>
                  {isMe ? (
                    <>
                      {" "}
                      <span className="badge">you</span>
                    </>
                  ) : null}
                  <div className="muted small member-email">{member.email}</div>
                </td>
                <td>
                  {canManage && !onlyOwner ? (
                    <select
                      aria-label={`Role of ${label(member)}`}
                      className="compact"
                      value={member.role}
                      disabled={busy}
                      onChange={(event) => void onRole(member, event.target.value as MemberRole)}
                    >
                      {memberRoles.map((role) => (
                        <option key={role} value={role}>
                          {role}
                        </option>
                      ))}
                    </select>
                  ) : (
                    <RoleBadge role={member.role} />
                  )}
                  {onlyOwner ? <div className="muted small">only owner</div> : null}
                </td>
                <td className="small muted" data-narrow="hide">
                  {formatDateTime(member.joinedAt)}
                </td>
                {canManage ? (
                  <td className="cell-actions">
                    {isMe || onlyOwner ? null : (
                      <button
                        type="button"
                        className="button small danger"
                        onClick={() => onRemove(member)}
                        disabled={busy}
                        aria-label={`Remove ${label(member)}`}
                      >
                        Remove
                      </button>
                    )}
                  </td>
                ) : null}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

function label(member: MemberRow): string {
  return member.name ? `${member.name} (${member.email})` : member.email;
}
