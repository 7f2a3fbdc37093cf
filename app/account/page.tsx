import type { Metadata } from "next";
import Link from "next/link";
import { AccountNameForm } from "~/components/auth/account-name-form";
import { ChangeEmailForm } from "~/components/auth/change-email-form";
import { ChangePasswordForm } from "~/components/auth/change-password-form";
import { api, orNotFound, sessionUser } from "~/app/_lib/trpc-server";
import { Breadcrumbs } from "~/components/breadcrumbs";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Your account" };

export default async function AccountPage() {
  const projects = await orNotFound((await api()).project.list());
  const user = await sessionUser();
  return (
    <div className="narrow">
      <Breadcrumbs items={[{ label: "Your account" }]} />
      <div className="page-head">
        <div>
          <h1>Your account</h1>
          <p>
            {user?.name} · {user?.email}
          </p>
        </div>
      </div>
      {user ? (
        <>
          <section className="card" aria-labelledby="name-heading">
            <h2 id="name-heading">Name</h2>
            <AccountNameForm name={user.name} />
          </section>
          <section className="card" aria-labelledby="email-heading">
            <h2 id="email-heading">Email</h2>
            <ChangeEmailForm email={user.email} />
          </section>
        </>
      ) : null}
      <section className="card" aria-labelledby="password-heading">
        <h2 id="password-heading">Password</h2>
        <ChangePasswordForm />
      </section>
      <section className="card" aria-labelledby="projects-heading">
        <h2 id="projects-heading">Your projects</h2>
        {projects.length === 0 ? <p className="muted">You are not a member of any project yet.</p> : null}
        <ul>
          {projects.map((project) => (
            <li key={project.id}>
              <Link href={`/p/${project.slug}`}>{project.name}</Link> <span className="badge">{project.role}</span>
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
