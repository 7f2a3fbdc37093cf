import type { Metadata } from "next";
import Link from "next/link";
import { SetupForm } from "~/components/auth/setup-form";
import { api, orNotFound } from "~/app/_lib/trpc-server";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Set up Versus", robots: { index: false }, referrer: "no-referrer" };

export default async function SetupPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const state = await orNotFound((await api()).setup.linkState({ token }));
  return (
    <div className="narrow">
      <div className="page-head">
        <div>
          <h1>Set up Versus</h1>
          <p>Create the first owner account. The owner can then invite the rest of the team.</p>
        </div>
      </div>
      {state === "valid" ? (
        <section className="card">
          <SetupForm token={token} />
          <p className="muted small">You will own every project already here, including the example data.</p>
        </section>
      ) : state === "done" ? (
        <div className="card" role="status">
          <p>
            Versus is already set up. <Link href="/sign-in">Sign in</Link> instead.
          </p>
        </div>
      ) : (
        <div className="alert" role="alert">
          This setup link is not valid or has expired. Make a new one on the server with <code>npx versus admin setup-link</code>.
        </div>
      )}
    </div>
  );
}
