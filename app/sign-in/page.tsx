import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { SignInForm } from "~/components/auth/sign-in-form";
import { safeNextPath } from "~/components/auth/safe-next";
import { api } from "~/app/_lib/trpc-server";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Sign in" };

export default async function SignInPage({ searchParams }: { searchParams: Promise<{ next?: string }> }) {
  const { next } = await searchParams;
  const { needsSetup, user } = await (await api()).setup.status();
  if (user) redirect(safeNextPath(next));
  return (
    <div className="narrow">
      <div className="page-head">
        <div>
          <h1>Sign in</h1>
          <p>Versus keeps each project&apos;s results private to its members.</p>
        </div>
      </div>
      {needsSetup ? (
        <div className="card" role="status">
          <h2>Versus is not set up yet</h2>
          <p>
            There is no account yet. Open the one-time setup link that <code>npm start</code> printed in its terminal, or make a new one on the server with{" "}
            <code>npx versus admin setup-link</code>.
          </p>
        </div>
      ) : (
        <section className="card">
          <SignInForm next={next} />
          <p className="muted small">No account? Ask a project owner to invite you.</p>
        </section>
      )}
    </div>
  );
}
