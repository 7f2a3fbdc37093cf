import type { Metadata } from "next";
import Link from "next/link";
import { AlertList } from "~/components/alerts/alert-list";
import { openProject, ProjectPage, type ProjectPageParams } from "~/app/_lib/project-page";

export const metadata: Metadata = { title: "Alerts" };

type Params = ProjectPageParams & { searchParams: Promise<{ status?: string }> };

const filters = [
  { value: "active", label: "Open and acknowledged" },
  { value: "resolved", label: "Resolved" },
  { value: "all", label: "All" },
] as const;

export default async function AlertsPage({ params, searchParams }: Params) {
  const project = await openProject({ params });
  const requested = (await searchParams).status;
  const status = filters.find((f) => f.value === requested)?.value ?? "active";
  return (
    <ProjectPage
      project={project}
      title="Alerts"
      intro={<>Breaches of the alert rules set on experiments (each experiment&apos;s page, under “Alert rules and badges”). One alert per rule and commit.</>}
    >
      <section className="card" aria-labelledby="alerts-heading">
        <h2 id="alerts-heading">Alerts</h2>
        <nav className="actions small" aria-label="Which alerts">
          {filters.map((filter) =>
            filter.value === status ? (
              <span key={filter.value} className="badge accent" aria-current="page">
                {filter.label}
              </span>
            ) : (
              <Link key={filter.value} href={`/p/${project.slug}/alerts?status=${filter.value}`}>
                {filter.label}
              </Link>
            ),
          )}
        </nav>
        <AlertList projectSlug={project.slug} status={status} limit={200} />
      </section>
    </ProjectPage>
  );
}
