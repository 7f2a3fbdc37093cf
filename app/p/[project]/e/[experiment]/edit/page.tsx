import type { Metadata } from "next";
import { ExperimentForm } from "~/components/experiments/experiment-form";
import { toFormValues } from "~/components/experiments/to-form-values";
import { RoleGate } from "~/components/projects/read-only-notice";
import { openExperiment, ProjectPage, type ExperimentPageParams } from "~/app/_lib/project-page";

export const metadata: Metadata = { title: "Edit experiment" };

export default async function EditExperimentPage(props: ExperimentPageParams) {
  const detail = await openExperiment(props);
  const { project, experiment, role } = detail;
  const experimentPath = `/p/${project.slug}/e/${experiment.slug}`;
  return (
    <ProjectPage project={project} title="Edit experiment" trail={[{ label: experiment.title, href: experimentPath }, { label: "Edit" }]}>
      <RoleGate project={project} role={role} needs="member" action="edit experiments" back={{ href: experimentPath, label: `Back to ${experiment.title}` }}>
        <ExperimentForm mode="edit" projectSlug={project.slug} experimentSlug={experiment.slug} initial={toFormValues(detail)} />
      </RoleGate>
    </ProjectPage>
  );
}
