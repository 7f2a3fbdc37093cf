import type { Metadata } from "next";
import Link from "next/link";
import { ApiKeysPanel } from "~/components/api-keys/api-keys-panel";
import { RoleGate } from "~/components/projects/read-only-notice";
import { openProject, ProjectPage, type ProjectPageParams } from "~/app/_lib/project-page";
import { publicOrigin } from "~/app/_lib/public-origin";

export const metadata: Metadata = { title: "API keys" };

export default async function ApiKeysPage(props: ProjectPageParams) {
  const project = await openProject(props);
  return (
    <ProjectPage
      project={project}
      title="API keys"
      intro={
        <>
          Keys let scripts, CI and agents upload results to this project through the <Link href="/api-docs">REST API</Link>, and — when made to — start runs on
          its agents. A key reaches only this project.
        </>
      }
    >
      <RoleGate project={project} role={project.role} needs="member" action="see and create API keys">
        <ApiKeysPanel projectSlug={project.slug} origin={await publicOrigin()} />
      </RoleGate>
    </ProjectPage>
  );
}
