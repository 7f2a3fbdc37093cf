// The caller's (or a member's) role, with what it allows as its tooltip.
import type { MemberRole } from "~/server/access/project-access";
import { roleDescriptions } from "~/server/schemas/member";

export function RoleBadge({ role, label }: { role: MemberRole; label?: string }) {
  return (
    <span className={role === "owner" ? "badge accent" : role === "member" ? "badge good" : "badge"} title={`${role} — ${roleDescriptions[role]}`}>
      {label ?? role}
    </span>
  );
}
