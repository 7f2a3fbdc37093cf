import type { Metadata } from "next";
import Link from "next/link";
import { formatDateTime, plural } from "~/components/format";
import { OpenChangePointsTable } from "~/components/history/open-change-points-table";
import { openProject, ProjectPage, type ProjectPageParams } from "~/app/_lib/project-page";
import { api } from "~/app/_lib/trpc-server";

export const metadata: Metadata = { title: "History" };

export default async function ProjectHistoryPage(props: ProjectPageParams) {
  const project = await openProject(props);
  const overview = await (await api()).history.overview({ projectSlug: project.slug });
  const base = `/p/${project.slug}`;
  return (
    <ProjectPage
      project={project}
      title="History"
      intro={<>Every experiment whose runs name git commits, each metric over those commits, and the change points still open.</>}
    >
      <section className="card" aria-labelledby="open-heading">
        <h2 id="open-heading">
          Open change points <span className="muted small">({overview.openChangePoints.length})</span>
        </h2>
        {overview.openChangePoints.length === 0 ? (
          <p className="empty">None open: no history shifted, or every shift was acknowledged or dismissed.</p>
        ) : (
          <OpenChangePointsTable projectSlug={project.slug} changePoints={overview.openChangePoints} />
        )}
      </section>
      <section className="card" aria-labelledby="histories-heading">
        <h2 id="histories-heading">Histories</h2>
        {overview.experiments.length === 0 ? (
          <p className="empty">
            No run names a git commit yet. Upload runs with <code>gitCommit</code> (and <code>gitBranch</code>, <code>gitCommitTime</code>,{" "}
            <code>gitCommitMessage</code>) to POST /api/v1/results, e.g. from CI on every commit.
          </p>
        ) : (
          <div className="table-wrap">
            <table aria-label="Histories">
              <thead>
                <tr>
                  <th>Experiment</th>
                  <th className="num">Commits</th>
                  <th data-narrow="hide">Last commit</th>
                  <th>Metrics</th>
                </tr>
              </thead>
              <tbody>
                {overview.experiments.map((e) => (
                  <tr key={e.slug}>
                    <td>
                      <Link href={`${base}/e/${e.slug}/history`}>{e.title}</Link>
                    </td>
                    <td className="num">{e.commits}</td>
                    <td className="small" data-narrow="hide">
                      {e.lastCommitAt ? formatDateTime(new Date(e.lastCommitAt)) : "—"}
                    </td>
                    <td>
                      {e.metrics.map((m) => (
                        <div key={m.key} className="history-metric">
                          <Link href={`${base}/e/${e.slug}/history?metric=${encodeURIComponent(m.key)}`}>{m.label || m.key}</Link>
                          {m.open.regressions ? <span className="badge warn">{plural(m.open.regressions, "regression")}</span> : null}
                          {m.open.improvements ? <span className="badge good">{plural(m.open.improvements, "improvement")}</span> : null}
                        </div>
                      ))}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </ProjectPage>
  );
}
