import type { Metadata } from "next";
import Link from "next/link";
import { formatDateTime, plural } from "~/components/format";
import { AlertList } from "~/components/alerts/alert-list";
import { ExampleBadge } from "~/components/experiments/example-badge";
import { RoleBadge } from "~/components/projects/role-badge";
import { roleAtLeast } from "~/server/access/project-access";
import { ProjectPage, type ProjectPageParams } from "~/app/_lib/project-page";
import { api, orNotFound } from "~/app/_lib/trpc-server";

export async function generateMetadata({ params }: ProjectPageParams): Promise<Metadata> {
  const { project } = await params;
  return { title: project };
}

export default async function ProjectHomePage({ params }: ProjectPageParams) {
  const { project: projectSlug } = await params;
  const { project, experiments, role } = await orNotFound((await api()).experiment.list({ projectSlug }));
  // Offer only what the caller's role allows; the server refuses the rest anyway.
  const canWrite = roleAtLeast(role, "member");
  // The alerts card shows only while something needs someone (the Alerts page lists them all).
  const { open } = await (await api()).alert.list({ projectSlug, status: "active", limit: 1 });
  return (
    <ProjectPage
      project={project}
      title={project.name}
      trail={[]}
      intro={
        <>
          <RoleBadge role={role} label={`you: ${role}`} /> {project.description ?? "Experiments in this project"}
        </>
      }
      actions={
        <>
          <Link className="button" href={`/p/${project.slug}/history`}>
            History
          </Link>
          <Link className="button" href={`/p/${project.slug}/compare`}>
            Compare runs
          </Link>
          <Link className="button" href={`/p/${project.slug}/alerts`}>
            Alerts
          </Link>
          <Link className="button" href={`/p/${project.slug}/members`}>
            Members
          </Link>
          {role === "owner" ? (
            <Link className="button" href={`/p/${project.slug}/settings`}>
              Settings
            </Link>
          ) : null}
          {canWrite ? (
            <>
              <Link className="button" href={`/p/${project.slug}/keys`}>
                API keys
              </Link>
              <Link className="button" href={`/p/${project.slug}/agents`}>
                Agents
              </Link>
              <Link className="button primary" href={`/p/${project.slug}/new`}>
                New experiment
              </Link>
            </>
          ) : null}
        </>
      }
    >
      {/* Regressions first: an open alert is what needs someone now. */}
      {open > 0 ? (
        <section className="card notice" aria-labelledby="open-alerts-heading">
          <h2 id="open-alerts-heading">
            Open alerts <span className="badge warn">{open}</span>{" "}
            <Link className="small" href={`/p/${project.slug}/alerts`}>
              all alerts
            </Link>
          </h2>
          <AlertList projectSlug={project.slug} status="active" limit={5} compact />
        </section>
      ) : null}
      {experiments.length === 0 ? (
        <div className="card empty">
          <p>No experiments yet.</p>
          {canWrite ? (
            <Link className="button primary" href={`/p/${project.slug}/new`}>
              Define the first experiment
            </Link>
          ) : null}
        </div>
      ) : (
        <div className="card table-wrap">
          <table aria-label="Experiments">
            <thead>
              <tr>
                <th>Experiment</th>
                <th>Variants</th>
                <th className="num" data-narrow="hide">
                  Metrics
                </th>
                <th className="num">Runs</th>
                <th data-narrow="hide">Status</th>
                <th data-narrow="hide">Updated</th>
              </tr>
            </thead>
            <tbody>
              {experiments.map((experiment) => (
                <tr key={experiment.slug}>
                  <td>
                    <Link href={`/p/${project.slug}/e/${experiment.slug}`}>{experiment.title}</Link>
                    <ExampleBadge isExample={experiment.isExample} origins={experiment.runOrigins} />
                    {experiment.hypothesis ? <div className="muted small">{experiment.hypothesis}</div> : null}
                  </td>
                  <td>
                    {experiment.variants.map((variant) => (
                      <span key={variant.name} className={variant.isBaseline ? "badge good" : "badge"} style={{ marginRight: 4 }}>
                        {variant.name}
                        {variant.isBaseline ? " (baseline)" : ""}
                      </span>
                    ))}
                  </td>
                  <td className="num" data-narrow="hide">
                    {experiment.metricCount}
                  </td>
                  <td className="num">{experiment.runCount}</td>
                  <td data-narrow="hide">
                    <span className="badge">{experiment.status}</span>
                  </td>
                  <td className="small muted" data-narrow="hide">
                    {formatDateTime(experiment.updatedAt)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <p className="muted small">{plural(experiments.length, "experiment")}</p>
        </div>
      )}
    </ProjectPage>
  );
}
