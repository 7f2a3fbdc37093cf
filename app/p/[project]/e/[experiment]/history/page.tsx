import type { Metadata } from "next";
import Link from "next/link";
import { HistoryExplorer } from "~/components/history/history-explorer";
import { openExperiment, ProjectPage, type ExperimentPageParams } from "~/app/_lib/project-page";
import { api, orNotFound } from "~/app/_lib/trpc-server";

type Params = ExperimentPageParams & { searchParams: Promise<{ metric?: string; variant?: string; branch?: string }> };

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  const { experiment } = await params;
  return { title: `History · ${experiment}` };
}

export default async function ExperimentHistoryPage({ params, searchParams }: Params) {
  const { project, experiment } = await openExperiment({ params });
  const query = await searchParams;
  // An unknown metric or variant in the URL (an old link after a rename) falls back to the default.
  const metric = experiment.metrics.some((m) => m.key === query.metric) ? query.metric : undefined;
  const variant = experiment.variants.some((v) => v.name === query.variant) ? query.variant : undefined;
  const branch = query.branch?.trim() ? query.branch.trim().slice(0, 200) : undefined;
  const history = await orNotFound((await api()).history.get({ projectSlug: project.slug, experimentSlug: experiment.slug, metric, variant, branch }));
  const base = `/p/${project.slug}/e/${experiment.slug}`;
  return (
    <ProjectPage
      project={project}
      title={`History: ${experiment.title}`}
      trail={[{ label: experiment.title, href: base }, { label: "History" }]}
      intro={
        <>
          Each metric over commits: one point per commit (the median of its runs), with its confidence interval, every run, and the change points where the
          level shifted. <Link href={`/p/${project.slug}/history`}>All histories of the project</Link>
        </>
      }
      actions={
        <Link className="button" href={base}>
          Experiment
        </Link>
      }
    >
      <HistoryExplorer
        key={`${history.metric.key}/${history.variant}/${history.branch ?? ""}`}
        projectSlug={project.slug}
        experimentSlug={experiment.slug}
        initial={history}
      />
    </ProjectPage>
  );
}
