import type { Metadata } from "next";
import { Breadcrumbs } from "~/components/breadcrumbs";
import { ExperimentForm } from "~/components/experiments/experiment-form";
import { toFormValues } from "~/components/experiments/to-form-values";
import { ReadOnlyNotice } from "~/components/projects/read-only-notice";
import { roleAtLeast } from "~/server/access/project-access";
import { api, orNotFound } from "~/app/_lib/trpc-server";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Edit experiment" };

type Params = { params: Promise<{ project: string; experiment: string }> };

export default async function EditExperimentPage({ params }: Params) {
  const { project: projectSlug, experiment: experimentSlug } = await params;
  const detail = await orNotFound((await api()).experiment.get({ projectSlug, experimentSlug }));
  const { project, experiment, role } = detail;
  const experimentPath = `/p/${project.slug}/e/${experiment.slug}`;
  return (
    <>
      <Breadcrumbs items={[{ label: project.name, href: `/p/${project.slug}` }, { label: experiment.title, href: experimentPath }, { label: "Edit" }]} />
      <div className="page-head">
        <h1>Edit experiment</h1>
      </div>
      {roleAtLeast(role, "member") ? (
        <ExperimentForm mode="edit" projectSlug={project.slug} experimentSlug={experiment.slug} initial={toFormValues(detail)} />
      ) : (
        <ReadOnlyNotice
          role={role}
          projectName={project.name}
          projectSlug={project.slug}
          needs="member"
          action="edit experiments"
          back={{ href: experimentPath, label: `Back to ${experiment.title}` }}
        />
      )}
    </>
  );
}
