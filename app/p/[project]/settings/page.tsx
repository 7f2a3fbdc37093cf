import type { Metadata } from "next";
import { DeleteProjectForm } from "~/components/projects/delete-project-form";
import { ProjectSettingsForm } from "~/components/projects/project-settings-form";
import { RepositoryUrlForm } from "~/components/history/repository-url-form";
import { RoleGate } from "~/components/projects/read-only-notice";
import { openProject, ProjectPage, type ProjectPageParams } from "~/app/_lib/project-page";

export const metadata: Metadata = { title: "Settings" };

export default async function ProjectSettingsPage(props: ProjectPageParams) {
  const project = await openProject(props);
  return (
    <ProjectPage
      project={project}
      title="Settings"
      intro={
        <>
          The project&apos;s name and description. Its slug, <code>{project.slug}</code>, stays the same: links, API paths and CI scripts use it.
        </>
      }
    >
      <RoleGate project={project} role={project.role} needs="owner" action="change the project's settings">
        <section className="card" aria-labelledby="details-heading">
          <h2 id="details-heading">Details</h2>
          <ProjectSettingsForm projectSlug={project.slug} name={project.name} description={project.description ?? ""} />
        </section>
        <section className="card" aria-labelledby="repository-heading">
          <h2 id="repository-heading">Repository</h2>
          <RepositoryUrlForm projectSlug={project.slug} repositoryUrl={project.repositoryUrl ?? ""} />
        </section>
        <section className="card danger-zone" aria-labelledby="delete-heading">
          <h2 id="delete-heading">Delete project</h2>
          <DeleteProjectForm projectSlug={project.slug} projectName={project.name} />
        </section>
      </RoleGate>
    </ProjectPage>
  );
}
