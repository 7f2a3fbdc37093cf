import Link from "next/link";
import { NewProjectForm } from "~/components/projects/new-project-form";
import { RoleBadge } from "~/components/projects/role-badge";
import { api, orNotFound } from "./_lib/trpc-server";

export const dynamic = "force-dynamic";

export default async function HomePage() {
  const projects = await orNotFound((await api()).project.list());
  return (
    <>
      <div className="page-head">
        <div>
          <h1>Projects</h1>
          <p>Each project holds a team&apos;s experiments, runs and comparisons.</p>
        </div>
      </div>
      {projects.length === 0 ? (
        <div className="card empty">No projects yet. Create the first one below.</div>
      ) : (
        <div className="grid" style={{ marginBottom: "1.5rem" }}>
          {projects.map((project) => (
            <Link key={project.id} href={`/p/${project.slug}`} className="card" style={{ color: "inherit" }}>
              <h2 style={{ marginBottom: "0.25rem" }}>{project.name}</h2>
              {project.description ? (
                <p className="muted small" style={{ margin: "0 0 0.5rem" }}>
                  {project.description}
                </p>
              ) : null}
              <span className="badge">
                {project.experimentCount} experiment{project.experimentCount === 1 ? "" : "s"}
              </span>{" "}
              <RoleBadge role={project.role} />
            </Link>
          ))}
        </div>
      )}
      <section className="card" aria-labelledby="new-project">
        <h2 id="new-project">New project</h2>
        <NewProjectForm />
      </section>
    </>
  );
}
