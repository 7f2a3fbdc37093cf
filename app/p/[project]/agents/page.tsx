import type { Metadata } from "next";
import { AgentsTable } from "~/components/agents/agents-table";
import { EnrollmentTokensPanel } from "~/components/agents/enrollment-tokens-panel";
import { HowEnrollmentWorks } from "~/components/agents/how-enrollment-works";
import { roleAtLeast } from "~/server/access/project-access";
import { RoleGate } from "~/components/projects/read-only-notice";
import { openProject, ProjectPage, type ProjectPageParams } from "~/app/_lib/project-page";
import { publicOrigin } from "~/app/_lib/public-origin";

export const metadata: Metadata = { title: "Agents" };

export default async function AgentsPage(props: ProjectPageParams) {
  const project = await openProject(props);
  return (
    <ProjectPage
      project={project}
      title="Agents"
      intro="Agents are workers on your own machines that run this project's experiments and report the results. They join with an enrollment token."
    >
      <AgentsTable projectSlug={project.slug} canWrite={roleAtLeast(project.role, "member")} />
      <HowEnrollmentWorks />
      <RoleGate project={project} role={project.role} needs="member" action="see, create and revoke enrollment tokens">
        <EnrollmentTokensPanel projectSlug={project.slug} origin={await publicOrigin()} />
      </RoleGate>
    </ProjectPage>
  );
}
