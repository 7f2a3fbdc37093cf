import type { Metadata } from "next";
import { MembersPanel } from "~/components/members/members-panel";
import { RoleBadge } from "~/components/projects/role-badge";
import { openProject, ProjectPage, type ProjectPageParams } from "~/app/_lib/project-page";

export const metadata: Metadata = { title: "Members" };

export default async function MembersPage(props: ProjectPageParams) {
  const project = await openProject(props);
  const intro = (
    <>
      Who can see and change {project.name}. Viewers read; members also create experiments, upload runs and make API keys; owners also manage members and the
      project. Your role: <RoleBadge role={project.role} />
    </>
  );
  return (
    <ProjectPage project={project} title="Members" intro={intro}>
      <MembersPanel projectSlug={project.slug} projectName={project.name} role={project.role} />
    </ProjectPage>
  );
}
