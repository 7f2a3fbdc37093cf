"use client";
// Who is signed in, and the way out. Signing out ends the session on the server (better-auth
// deletes it), not only the cookie.
import Link from "next/link";
import { useState } from "react";
import { authClient } from "./auth-client";
import { personLabel } from "~/server/display/display";

export function UserMenu({ user }: { user: { name: string; email: string } }) {
  const [busy, setBusy] = useState(false);
  const signOut = async () => {
    setBusy(true);
    await authClient.signOut();
    window.location.assign(new URL("/sign-in", window.location.href));
  };
  return (
    <div className="user-menu">
      <Link className="who" href="/account" title={`${user.email} — your account`}>
        {personLabel(user)}
      </Link>
      <button type="button" className="button small" onClick={signOut} disabled={busy}>
        Sign out
      </button>
    </div>
  );
}
