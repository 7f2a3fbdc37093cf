"use client";
// Signed in as someone other than the invited address: the invitation cannot be theirs. Signing
// out here brings back this page, now offering the invited address's way in.
import { useState } from "react";
import { authClient } from "~/components/auth/auth-client";

export function SwitchAccount({ signedInEmail, invitedEmail }: { signedInEmail: string; invitedEmail: string }) {
  const [busy, setBusy] = useState(false);
  const signOut = async () => {
    setBusy(true);
    await authClient.signOut();
    window.location.reload();
  };
  return (
    <div className="stack-tight" role="status">
      <p style={{ margin: 0 }}>
        You are signed in as <strong>{signedInEmail}</strong>, but this invitation is for <strong>{invitedEmail}</strong>. Sign out to accept it as{" "}
        {invitedEmail}, or ask the owner to invite {signedInEmail} instead.
      </p>
      <div>
        <button type="button" className="button" onClick={signOut} disabled={busy}>
          Sign out
        </button>
      </div>
    </div>
  );
}
