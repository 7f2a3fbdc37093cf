import type { Metadata } from "next";
import Link from "next/link";
import { TRPCError } from "@trpc/server";
import { CompareForm } from "~/components/compare/compare-form";
import { CrossComparisonResult } from "~/components/compare/cross-comparison-result";
import { openProject, ProjectPage, type ProjectPageParams } from "~/app/_lib/project-page";
import { api, onOnePooledConnection } from "~/app/_lib/trpc-server";
import { requestOfQuery, ZCrossComparisonQuery } from "~/server/schemas/cross-comparison";

export const metadata: Metadata = { title: "Compare runs" };

type Params = ProjectPageParams & { searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function ComparePage(props: Params) {
  // Its two reads, made at once, share one pooled connection.
  return onOnePooledConnection(() => comparePage(props));
}

async function comparePage({ params, searchParams }: Params) {
  const project = await openProject({ params });
  const caller = await api();
  // A hand-edited link with a bad field is shown as no choice for that field, not as an error page.
  const parsed = ZCrossComparisonQuery.safeParse(await searchParams);
  const query = parsed.success ? parsed.data : {};
  const request = requestOfQuery(project.slug, query);
  const [options, outcome] = await Promise.all([
    caller.report.runSetOptions({ projectSlug: project.slug }),
    request
      ? caller.report.crossCompare(request).then(
          (result) => ({ result }),
          (error: unknown) => {
            // Unknown experiment or variant in the link: say so above the form.
            if (error instanceof TRPCError && error.code !== "INTERNAL_SERVER_ERROR") return { error: error.message };
            throw error;
          },
        )
      : null,
  ]);

  return (
    <ProjectPage
      project={project}
      title="Compare runs"
      intro="Runs from two experiments, two variants or two commits (before and after a deploy), compared the way an experiment compares its variants: one value per run, Mann-Whitney U test, Hodges–Lehmann interval of the change."
    >
      {options.experiments.length === 0 ? (
        <div className="card empty">
          <p>No experiments in this project yet.</p>
          <Link className="button primary" href={`/p/${project.slug}/new`}>
            Define the first experiment
          </Link>
        </div>
      ) : (
        <section className="card" aria-label="Choose the runs">
          <CompareForm projectSlug={project.slug} options={options} query={query} />
        </section>
      )}
      {outcome && "error" in outcome ? (
        <p className="alert" role="alert">
          {outcome.error}
        </p>
      ) : null}
      {outcome && "result" in outcome ? <CrossComparisonResult result={outcome.result} projectSlug={project.slug} /> : null}
    </ProjectPage>
  );
}
