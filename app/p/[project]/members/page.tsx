import type { Metadata } from "next";
import { Breadcrumbs } from "~/components/breadcrumbs";
import { MembersPanel } from "~/components/members/members-panel";
import { RoleBadge } from "~/components/projects/role-badge";
import { api, orNotFound } from "~/app/_lib/trpc-server";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Members" };

export default async function MembersPage({ params }: { params: Promise<{ project: string }> }) {
  const { project: projectSlug } = await params;
  const project = await orNotFound((await api()).project.bySlug({ projectSlug }));
  return (
    <>
      <Breadcrumbs items={[{ label: project.name, href: `/p/${project.slug}` }, { label: "Members" }]} />
      <div className="page-head">
        <div>
          <h1>Members</h1>
          <p>
            Who can see and change {project.name}. Viewers read; members also create experiments, upload runs and make API keys; owners also manage members and the
            project. Your role: <RoleBadge role={project.role} />
          </p>
        </div>
      </div>
      <MembersPanel projectSlug={project.slug} projectName={project.name} role={project.role} />
    </>
  );
}
