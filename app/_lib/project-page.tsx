// How every page under /p/[project]/ opens: the project it is about (404 when it does not exist
// or the caller is not a member: the two look the same), the breadcrumb trail from "Projects"
// down, and the page's heading with its introduction and actions.
import "server-only";
import type { ReactNode } from "react";
import { Breadcrumbs } from "~/components/breadcrumbs";
import { api, orNotFound } from "./trpc-server";

export type ProjectPageParams = { params: Promise<{ project: string }> };

/** The project of a /p/[project]/… page with the caller's role in it. */
export async function openProject({ params }: ProjectPageParams) {
  const { project: projectSlug } = await params;
  return orNotFound((await api()).project.bySlug({ projectSlug }));
}

export type ExperimentPageParams = { params: Promise<{ project: string; experiment: string }> };

/** The experiment of a /p/[project]/e/[experiment]/… page, its project and the caller's role. */
export async function openExperiment({ params }: ExperimentPageParams) {
  const { project: projectSlug, experiment: experimentSlug } = await params;
  return orNotFound((await api()).experiment.get({ projectSlug, experimentSlug }));
}

interface ProjectPageProps {
  project: { slug: string; name: string };
  title: string;
  /** The breadcrumbs after the project's own; the title when omitted, none on the project's home page. */
  trail?: { label: string; href?: string }[];
  /** The line under the heading. */
  intro?: ReactNode;
  /** Buttons beside the heading. */
  actions?: ReactNode;
  children: ReactNode;
}

export function ProjectPage({ project, title, trail = [{ label: title }], intro, actions, children }: ProjectPageProps) {
  return (
    <>
      <Breadcrumbs items={[{ label: project.name, href: `/p/${project.slug}` }, ...trail]} />
      <div className="page-head">
        <div>
          <h1>{title}</h1>
          {intro ? <p>{intro}</p> : null}
        </div>
        {actions ? <div className="actions">{actions}</div> : null}
      </div>
      {children}
    </>
  );
}
