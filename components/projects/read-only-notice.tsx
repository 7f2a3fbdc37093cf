// Shown instead of a form the caller's role does not allow. The server refuses the write anyway
// (FORBIDDEN); this says so before anyone fills in a form for nothing.
import Link from "next/link";
import type { ReactNode } from "react";
import { roleAtLeast, type MemberRole } from "~/server/access/project-access";
import { RoleBadge } from "./role-badge";

interface NoticeProps {
  project: { slug: string; name: string };
  role: MemberRole;
  needs: "member" | "owner";
  action: string;
  back?: { href: string; label: string };
}

export function ReadOnlyNotice({ project, ...props }: NoticeProps) {
  const title = props.role === "viewer" ? "You have read-only access" : `Only owners can ${props.action}`;
  return (
    <div className="card notice" role="status" aria-labelledby="read-only-heading">
      <h2 id="read-only-heading">{title}</h2>
      <p>
        You are a <RoleBadge role={props.role} /> of {project.name}. To {props.action} you need the {props.needs} role or higher; ask a{" "}
        <Link href={`/p/${project.slug}/members`}>project owner</Link> for it.
      </p>
      <p style={{ marginBottom: 0 }}>
        <Link href={props.back?.href ?? `/p/${project.slug}`}>{props.back?.label ?? `Back to ${project.name}`}</Link>
      </p>
    </div>
  );
}

/** The children when the caller's role is at least `needs`, the notice otherwise. */
export function RoleGate({ children, ...notice }: NoticeProps & { children: ReactNode }) {
  return roleAtLeast(notice.role, notice.needs) ? children : <ReadOnlyNotice {...notice} />;
}
