import type { Metadata } from "next";
import Link from "next/link";
import { AlertList } from "~/components/alerts/alert-list";
import { OpenChangePointsTable } from "~/components/history/open-change-points-table";
import { openProject, ProjectPage, type ProjectPageParams } from "~/app/_lib/project-page";
import { api } from "~/app/_lib/trpc-server";

export const metadata: Metadata = { title: "Alerts" };

type Params = ProjectPageParams & { searchParams: Promise<{ status?: string }> };

const filters = [
  { value: "active", label: "Open, acknowledged and confirming" },
  { value: "resolved", label: "Resolved" },
  { value: "all", label: "All" },
] as const;

export default async function AlertsPage({ params, searchParams }: Params) {
  const project = await openProject({ params });
  const requested = (await searchParams).status;
  const status = filters.find((f) => f.value === requested)?.value ?? "active";
  // Shifts the history found are worth a look whether or not a rule asked for them.
  const changePoints = await (await api()).history.openChangePoints({ projectSlug: project.slug });
  return (
    <ProjectPage
      project={project}
      title="Alerts"
      intro={
        <>
          Breaches of the alert rules set on experiments (each experiment&apos;s page, under “Alert rules and badges”), one alert per rule and commit; and the
          change points the history found that are still open.
        </>
      }
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
      <section className="card" aria-labelledby="change-points-heading">
        <h2 id="change-points-heading">
          Open change points <span className="muted small">({changePoints.length})</span>
        </h2>
        <p className="muted small">
          Shifts the history of commits found that nobody has acknowledged or dismissed yet, with or without an alert rule. Review them on each metric&apos;s
          history (the <Link href={`/p/${project.slug}/history`}>History</Link> page lists every experiment&apos;s).
        </p>
        {changePoints.length === 0 ? (
          <p className="empty">None open: no history shifted, or every shift was acknowledged or dismissed.</p>
        ) : (
          <OpenChangePointsTable projectSlug={project.slug} changePoints={changePoints} />
        )}
      </section>
    </ProjectPage>
  );
}
