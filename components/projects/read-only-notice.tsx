// Shown instead of a form the caller's role does not allow. The server refuses the write anyway
// (FORBIDDEN); this says so before anyone fills in a form for nothing.
import Link from "next/link";
import type { MemberRole } from "~/server/access/project-access";
import { RoleBadge } from "./role-badge";

export function ReadOnlyNotice(props: { role: MemberRole; projectName: string; projectSlug: string; needs: "member" | "owner"; action: string; back?: { href: string; label: string } }) {
  const title = props.role === "viewer" ? "You have read-only access" : `Only owners can ${props.action}`;
  return (
    <div className="card notice" role="status" aria-labelledby="read-only-heading">
      <h2 id="read-only-heading">{title}</h2>
      <p>
        You are a <RoleBadge role={props.role} /> of {props.projectName}. To {props.action} you need the {props.needs} role or higher; ask a{" "}
        <Link href={`/p/${props.projectSlug}/members`}>project owner</Link> for it.
      </p>
      <p style={{ marginBottom: 0 }}>
        <Link href={props.back?.href ?? `/p/${props.projectSlug}`}>{props.back?.label ?? `Back to ${props.projectName}`}</Link>
      </p>
    </div>
  );
}
