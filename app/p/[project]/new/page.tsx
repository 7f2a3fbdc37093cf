import type { Metadata } from "next";
import { ExperimentForm } from "~/components/experiments/experiment-form";
import { RoleGate } from "~/components/projects/read-only-notice";
import { openProject, ProjectPage, type ProjectPageParams } from "~/app/_lib/project-page";

export const metadata: Metadata = { title: "New experiment" };

export default async function NewExperimentPage(props: ProjectPageParams) {
  const project = await openProject(props);
  return (
    <ProjectPage project={project} title="New experiment" intro="Define it once: hypothesis, variants, metrics. Runs and uploads attach to it.">
      <RoleGate project={project} role={project.role} needs="member" action="create experiments">
        <ExperimentForm mode="create" projectSlug={project.slug} />
      </RoleGate>
    </ProjectPage>
  );
}
