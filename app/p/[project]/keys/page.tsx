import type { Metadata } from "next";
import Link from "next/link";
import { ApiKeysPanel } from "~/components/api-keys/api-keys-panel";
import { Breadcrumbs } from "~/components/breadcrumbs";
import { publicOrigin } from "~/app/_lib/public-origin";
import { ReadOnlyNotice } from "~/components/projects/read-only-notice";
import { roleAtLeast } from "~/server/access/project-access";
import { api, orNotFound } from "~/app/_lib/trpc-server";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "API keys" };

export default async function ApiKeysPage({ params }: { params: Promise<{ project: string }> }) {
  const { project: projectSlug } = await params;
  const project = await orNotFound((await api()).project.bySlug({ projectSlug }));
  return (
    <>
      <Breadcrumbs items={[{ label: project.name, href: `/p/${project.slug}` }, { label: "API keys" }]} />
      <div className="page-head">
        <div>
          <h1>API keys</h1>
          <p>
            Keys let scripts, CI and agents upload results to this project through the <Link href="/api-docs">REST API</Link>. A key reaches only this project.
          </p>
        </div>
      </div>
      {roleAtLeast(project.role, "member") ? (
        <ApiKeysPanel projectSlug={project.slug} origin={await publicOrigin()} />
      ) : (
        <ReadOnlyNotice role={project.role} projectName={project.name} projectSlug={project.slug} needs="member" action="see and create API keys" />
      )}
    </>
  );
}
