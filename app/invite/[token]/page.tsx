// The page an invitation link opens. Public: the person may have no account yet; the link's
// secret is what lets them in, once, as the invited address.
import type { Metadata } from "next";
import Link from "next/link";
import type { ReactNode } from "react";
import { TRPCError } from "@trpc/server";
import { formatDateTime } from "~/components/format";
import { JoinForm } from "~/components/invitations/join-form";
import { NewAccountAcceptForm } from "~/components/invitations/new-account-accept-form";
import { SignInAcceptForm } from "~/components/invitations/sign-in-accept-form";
import { SwitchAccount } from "~/components/invitations/switch-account";
import { RoleBadge } from "~/components/projects/role-badge";
import { roleDescriptions } from "~/server/schemas/member";
import type { InvitationView } from "~/server/projects/invitations";
import { api } from "~/app/_lib/trpc-server";

export const dynamic = "force-dynamic";
// The token is in the URL: keep it out of search engines and out of Referer headers.
export const metadata: Metadata = { title: "Invitation", robots: { index: false }, referrer: "no-referrer" };

export default async function InvitePage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const invitation = await viewOrNull(token);
  if (!invitation) {
    return (
      <Shell title="Invitation not found">
        <div className="alert" role="alert">
          This invitation link is not valid. Check that it was copied whole, or ask a project owner for a new one.
        </div>
      </Shell>
    );
  }
  if (invitation.state !== "valid") return <Unusable invitation={invitation} />;

  const { projectName, email, role } = invitation;
  return (
    <Shell title={`Join ${projectName} as ${role}`} lead={`${invitation.invitedBy ?? "A project owner"} invited ${email} to ${projectName}.`}>
      <section className="card">
        <p className="small">
          <RoleBadge role={role} /> {roleDescriptions[role]} The link works until {formatDateTime(invitation.expiresAt)}.
        </p>
        {invitation.signedInEmail === email ? (
          <JoinForm token={token} projectName={projectName} />
        ) : invitation.signedInEmail ? (
          <SwitchAccount signedInEmail={invitation.signedInEmail} invitedEmail={email} />
        ) : invitation.accountExists ? (
          <>
            <p>{email} already has an account. Sign in to join.</p>
            <SignInAcceptForm token={token} email={email} projectName={projectName} />
          </>
        ) : (
          <>
            <p>Create your account to join. You sign in with this email and password from now on.</p>
            <NewAccountAcceptForm token={token} email={email} projectName={projectName} />
          </>
        )}
      </section>
    </Shell>
  );
}

function Unusable({ invitation }: { invitation: InvitationView }) {
  const { projectName, projectSlug } = invitation;
  if (invitation.state === "accepted") {
    return (
      <Shell title={`Invitation to ${projectName}`}>
        <div className="card" role="status">
          <p style={{ margin: 0 }}>
            This invitation has already been accepted.{" "}
            {invitation.signedInEmail ? (
              <Link href={`/p/${projectSlug}`}>Open {projectName}</Link>
            ) : (
              <Link href={`/sign-in?next=${encodeURIComponent(`/p/${projectSlug}`)}`}>Sign in</Link>
            )}
          </p>
        </div>
      </Shell>
    );
  }
  const why =
    invitation.state === "expired"
      ? `This invitation expired on ${formatDateTime(invitation.expiresAt)}.`
      : "This invitation was withdrawn, or replaced by a newer one.";
  return (
    <Shell title={`Invitation to ${projectName}`}>
      <div className="alert" role="alert">
        {why} Ask {invitation.invitedBy ?? "a project owner"} to invite {invitation.email} again.
      </div>
    </Shell>
  );
}

function Shell({ title, lead, children }: { title: string; lead?: string; children: ReactNode }) {
  return (
    <div className="narrow">
      <div className="page-head">
        <div>
          <h1>{title}</h1>
          {lead ? <p>{lead}</p> : null}
        </div>
      </div>
      {children}
    </div>
  );
}

async function viewOrNull(token: string): Promise<InvitationView | null> {
  try {
    return await (await api()).invitation.view({ token });
  } catch (error) {
    if (error instanceof TRPCError && (error.code === "NOT_FOUND" || error.code === "BAD_REQUEST")) return null;
    throw error;
  }
}
