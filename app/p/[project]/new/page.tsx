import type { Metadata } from "next";
import { Breadcrumbs } from "~/components/breadcrumbs";
import { ExperimentForm } from "~/components/experiments/experiment-form";
import { ReadOnlyNotice } from "~/components/projects/read-only-notice";
import { roleAtLeast } from "~/server/access/project-access";
import { api, orNotFound } from "~/app/_lib/trpc-server";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "New experiment" };

export default async function NewExperimentPage({ params }: { params: Promise<{ project: string }> }) {
  const { project: projectSlug } = await params;
  const project = await orNotFound((await api()).project.bySlug({ projectSlug }));
  return (
    <>
      <Breadcrumbs items={[{ label: project.name, href: `/p/${project.slug}` }, { label: "New experiment" }]} />
      <div className="page-head">
        <div>
          <h1>New experiment</h1>
          <p>Define it once: hypothesis, variants, metrics. Runs and uploads attach to it.</p>
        </div>
      </div>
      {roleAtLeast(project.role, "member") ? (
        <ExperimentForm mode="create" projectSlug={project.slug} />
      ) : (
        <ReadOnlyNotice role={project.role} projectName={project.name} projectSlug={project.slug} needs="member" action="create experiments" />
      )}
    </>
  );
}
