import type { Metadata } from "next";
import { Breadcrumbs } from "~/components/breadcrumbs";
import { DeleteProjectForm } from "~/components/projects/delete-project-form";
import { ProjectSettingsForm } from "~/components/projects/project-settings-form";
import { ReadOnlyNotice } from "~/components/projects/read-only-notice";
import { api, orNotFound } from "~/app/_lib/trpc-server";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Settings" };

export default async function ProjectSettingsPage({ params }: { params: Promise<{ project: string }> }) {
  const { project: projectSlug } = await params;
  const project = await orNotFound((await api()).project.bySlug({ projectSlug }));
  return (
    <>
      <Breadcrumbs items={[{ label: project.name, href: `/p/${project.slug}` }, { label: "Settings" }]} />
      <div className="page-head">
        <div>
          <h1>Settings</h1>
          <p>
            The project&apos;s name and description. Its slug, <code>{project.slug}</code>, stays the same: links, API paths and CI scripts use it.
          </p>
        </div>
      </div>
      {project.role !== "owner" ? (
        <ReadOnlyNotice role={project.role} projectName={project.name} projectSlug={project.slug} needs="owner" action="change the project's settings" />
      ) : (
        <>
          <section className="card" aria-labelledby="details-heading">
            <h2 id="details-heading">Details</h2>
            <ProjectSettingsForm projectSlug={project.slug} name={project.name} description={project.description ?? ""} />
          </section>
          <section className="card danger-zone" aria-labelledby="delete-heading">
            <h2 id="delete-heading">Delete project</h2>
            <DeleteProjectForm projectSlug={project.slug} projectName={project.name} />
          </section>
        </>
      )}
    </>
  );
}
