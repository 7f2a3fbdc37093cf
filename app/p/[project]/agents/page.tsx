import type { Metadata } from "next";
import { AgentsTable } from "~/components/agents/agents-table";
import { EnrollmentTokensPanel } from "~/components/agents/enrollment-tokens-panel";
import { HowEnrollmentWorks } from "~/components/agents/how-enrollment-works";
import { Breadcrumbs } from "~/components/breadcrumbs";
import { ReadOnlyNotice } from "~/components/projects/read-only-notice";
import { roleAtLeast } from "~/server/access/project-access";
import { publicOrigin } from "~/app/_lib/public-origin";
import { api, orNotFound } from "~/app/_lib/trpc-server";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Agents" };

export default async function AgentsPage({ params }: { params: Promise<{ project: string }> }) {
  const { project: projectSlug } = await params;
  const project = await orNotFound((await api()).project.bySlug({ projectSlug }));
  return (
    <>
      <Breadcrumbs items={[{ label: project.name, href: `/p/${project.slug}` }, { label: "Agents" }]} />
      <div className="page-head">
        <div>
          <h1>Agents</h1>
          <p>Agents are workers on your own machines that run this project&apos;s experiments and report the results. They join with an enrollment token.</p>
        </div>
      </div>
      <AgentsTable projectSlug={project.slug} canWrite={roleAtLeast(project.role, "member")} />
      <HowEnrollmentWorks />
      {roleAtLeast(project.role, "member") ? (
        <EnrollmentTokensPanel projectSlug={project.slug} origin={await publicOrigin()} />
      ) : (
        <ReadOnlyNotice role={project.role} projectName={project.name} projectSlug={project.slug} needs="member" action="see, create and revoke enrollment tokens" />
      )}
    </>
  );
}
