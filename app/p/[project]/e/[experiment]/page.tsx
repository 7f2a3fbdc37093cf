import type { Metadata } from "next";
import Link from "next/link";
import { AlertRulesPanel } from "~/components/alerts/alert-rules-panel";
import { ChartsSection, type ChartsResult } from "~/components/charts/charts-section";
import { ComparisonTables } from "~/components/experiments/comparison-table";
import { DefinitionTables } from "~/components/experiments/definition-tables";
import { DeleteExperimentButton } from "~/components/experiments/delete-experiment-button";
import { ExportLinks } from "~/components/exports/export-links";
import { Markdown } from "~/components/experiments/markdown";
import { MetricResultsCard } from "~/components/experiments/metric-results";
import { measuredRunsText } from "~/components/experiments/stored-runs";
import { BatchesPanel } from "~/components/jobs/batches-panel";
import { NoiseFloorPanel } from "~/components/jobs/noise-floor-panel";
import { RunButton } from "~/components/jobs/run-button";
import { RunsTable } from "~/components/experiments/runs-table";
import { ExampleBadge } from "~/components/experiments/example-badge";
import { RunnableEmptyState, type RunnableWorkload } from "~/components/experiments/runnable-empty-state";
import { exampleNotice } from "~/server/experiments/example-notice";
import { builtInAgentsWith } from "~/server/workloads/built-in-agents";
import { jobCapabilities } from "~/server/workloads/job-capabilities";
import { ShareButton } from "~/components/share/share-button";
import { formatDateTime, plural } from "~/components/format";
import { roleAtLeast } from "~/server/access/project-access";
import { openExperiment, ProjectPage, type ExperimentPageParams } from "~/app/_lib/project-page";
import { workloadOf } from "~/server/schemas/workload";
import { publicOrigin } from "~/app/_lib/public-origin";
import { api, onOnePooledConnection } from "~/app/_lib/trpc-server";

type Params = ExperimentPageParams & { searchParams: Promise<{ baseline?: string }> };

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  const { experiment } = await params;
  return { title: experiment };
}

export default async function ExperimentPage(props: Params) {
  // A view's reads — its sections are asked for at once — share one pooled connection, which
  // leaves the rest of the pool to uploads and other readers.
  return onOnePooledConnection(() => experimentPage(props));
}

async function experimentPage({ params, searchParams }: Params) {
  const { project, experiment, role } = await openExperiment({ params });
  const { baseline } = await searchParams;
  // Viewers read; editing, deleting and sharing are offered to members and owners only (the
  // server checks each of them too).
  const canWrite = roleAtLeast(role, "member");
  // An unknown ?baseline= (an old link after a rename) falls back to the experiment's own baseline.
  const knownBaseline = experiment.variants.some((variant) => variant.name === baseline) ? baseline : undefined;
  const caller = await api();
  const ref = { projectSlug: project.slug, experimentSlug: experiment.slug };
  // What agents run for it: the Runs section says Run, and who runs each workload, until its first run.
  const agentRun = experiment.variants.flatMap((variant) => workloadOf(variant.config)?.workload ?? []);
  const firstMetric = experiment.metrics[0];
  const [results, batches, firstRuns, firstResults, noiseFloor] = await Promise.all([
    // The comparison and its charts in one computation; if the charts fail, the comparison still
    // shows and the charts section says what went wrong.
    experiment.runCount > 0 ? caller.experiment.results({ ...ref, baseline: knownBaseline }) : null,
    // Jobs agents ran or are running for it (the panel then follows them live).
    caller.job.batches(ref),
    // The first page of each list of runs; the lists load further pages themselves.
    caller.experiment.runs(ref),
    // The results card shows one metric at a time: the first one's first page comes with the page.
    experiment.runCount > 0 && firstMetric ? caller.experiment.metricResults({ ...ref, metricKey: firstMetric.key }) : null,
    // The agents' measured noise (agent-run experiments only: nothing else has an agent to measure).
    agentRun.length ? caller.job.noiseFloor(ref) : null,
  ]);
  const comparison = results?.comparison ?? null;
  const charts: ChartsResult | null = results
    ? results.charts
      ? { data: results.charts }
      : { error: results.chartsError ?? "the charts could not be drawn" }
    : null;
  const base = `/p/${project.slug}/e/${experiment.slug}`;
  const origin = await publicOrigin();
  const offered = agentRun.length && experiment.runCount === 0 ? await (await api()).agent.workloads({ projectSlug: project.slug }) : [];
  const runnableWorkloads: RunnableWorkload[] = [...new Set(agentRun)].map((name) => ({
    name,
    offers: offered.find((workload) => workload.name === name)?.agents ?? [],
    builtIn: builtInAgentsWith(name),
  }));
  // An A/A batch runs the baseline: measuring noise needs its workload.
  const baselineVariant = experiment.variants.find((variant) => variant.isBaseline);
  const baselineWorkload = baselineVariant ? workloadOf(baselineVariant.config) : null;
  const notice = exampleNotice(experiment.isExample, experiment.runOrigins);

  return (
    <ProjectPage
      project={project}
      title={experiment.title}
      intro={
        <>
          <span className="badge">{experiment.status}</span>
          <ExampleBadge isExample={experiment.isExample} origins={experiment.runOrigins} />{" "}
          {experiment.tags.map((tag) => (
            <span key={tag} className="badge" style={{ marginRight: 4 }}>
              #{tag}
            </span>
          ))}
          <span className="small"> Updated {formatDateTime(experiment.updatedAt)}</span>
        </>
      }
      actions={
        <>
          {canWrite ? (
            <>
              <RunButton
                title={experiment.title}
                projectSlug={project.slug}
                experimentSlug={experiment.slug}
                variants={experiment.variants.map((variant) => {
                  const workload = workloadOf(variant.config);
                  return {
                    name: variant.name,
                    workload: workload?.workload ?? null,
                    needs: workload ? jobCapabilities(workload) : [],
                    agents: workload?.agents ?? 1,
                  };
                })}
                builtIn={Object.fromEntries(agentRun.map((name) => [name, builtInAgentsWith(name)]))}
                warmupRuns={experiment.warmupRuns}
                measuredRuns={experiment.measuredRuns}
              />
              <Link className="button" href={`${base}/edit`}>
                Edit
              </Link>
              <DeleteExperimentButton projectSlug={project.slug} experimentSlug={experiment.slug} title={experiment.title} runCount={experiment.runCount} />
            </>
          ) : null}
          <Link className="button" href={`${base}/history`}>
            History
          </Link>
          <ExportLinks projectSlug={project.slug} experimentSlug={experiment.slug} baseline={knownBaseline} />
          {canWrite ? (
            <ShareButton
              title={experiment.title}
              projectSlug={project.slug}
              experimentSlug={experiment.slug}
              variants={experiment.variants.map((variant) => variant.name)}
              metrics={experiment.metrics.map((metric) => metric.key)}
              baseline={knownBaseline ?? experiment.variants.find((variant) => variant.isBaseline)?.name ?? ""}
              origin={origin}
            />
          ) : null}
        </>
      }
    >
      <div className="grid">
        <section className="card" aria-labelledby="hypothesis-heading">
          <h2 id="hypothesis-heading">Hypothesis</h2>
          {experiment.hypothesis ? <p style={{ margin: 0 }}>{experiment.hypothesis}</p> : <p className="muted">No hypothesis written yet.</p>}
        </section>
        <section className="card" aria-labelledby="method-heading">
          <h2 id="method-heading">Method</h2>
          <dl className="facts">
            <dt>Warm-up runs</dt>
            <dd>{experiment.warmupRuns}</dd>
            <dt>Measured runs</dt>
            <dd>{measuredRunsText(experiment.measuredRuns, experiment.variants)}</dd>
            <dt>Significance level</dt>
            <dd>α = {experiment.alpha}</dd>
            {experiment.parameters.map((parameter) => (
              <div key={parameter.name} style={{ display: "contents" }}>
                <dt>{parameter.name}</dt>
                <dd>{parameter.value || "—"}</dd>
              </div>
            ))}
          </dl>
        </section>
        {experiment.environmentNotes ? (
          <section className="card" aria-labelledby="environment-heading">
            <h2 id="environment-heading">Environment</h2>
            <p style={{ margin: 0, whiteSpace: "pre-wrap" }}>{experiment.environmentNotes}</p>
          </section>
        ) : null}
      </div>

      {notice?.text && notice.kind !== "runnable-example" ? (
        <div className="card notice" data-testid="example-notice">
          <Markdown>{notice.text}</Markdown>
        </div>
      ) : null}

      <BatchesPanel projectSlug={project.slug} experimentSlug={experiment.slug} canWrite={canWrite} initial={batches} renderedAt={new Date()} />

      {baselineWorkload ? (
        <NoiseFloorPanel
          floor={noiseFloor}
          canWrite={canWrite}
          target={{
            projectSlug: project.slug,
            experimentSlug: experiment.slug,
            baseline: baselineVariant?.name ?? "",
            needs: jobCapabilities(baselineWorkload),
            warmupRuns: experiment.warmupRuns,
            measuredRuns: experiment.measuredRuns,
          }}
        />
      ) : null}

      {/* The verdict first: what was compared and how is below it. */}
      {comparison ? <ComparisonTables comparison={comparison} basePath={base} /> : null}

      {charts ? <ChartsSection charts={charts} /> : null}

      <AlertRulesPanel
        target={{
          projectSlug: project.slug,
          experimentSlug: experiment.slug,
          metrics: experiment.metrics.map((metric) => metric.key),
          variants: experiment.variants.map((variant) => variant.name),
          confirmRuns: agentRun.length ? 2 * experiment.measuredRuns : undefined,
        }}
        canWrite={canWrite}
        origin={origin}
      />

      {experiment.description ? (
        <section className="card" aria-labelledby="description-heading">
          <h2 id="description-heading">Description</h2>
          <Markdown>{experiment.description}</Markdown>
        </section>
      ) : null}

      <DefinitionTables experiment={experiment} />

      {firstResults ? (
        // Keyed by the run count: when runs land (the batches panel refreshes the page), the list
        // starts again from its first page, as the server rendered it.
        <MetricResultsCard
          key={experiment.runCount}
          {...ref}
          metrics={experiment.metrics.map(({ key, label, unit, direction, aggregation, summaryFigure }) => ({
            key,
            label,
            unit,
            direction,
            aggregation,
            summaryFigure,
          }))}
          first={firstResults}
        />
      ) : null}

      <section className="card" aria-labelledby="runs-heading">
        <h2 id="runs-heading">
          Runs <span className="muted small">({plural(experiment.runCount, "run")})</span>
        </h2>
        <RunsTable
          key={experiment.runCount}
          {...ref}
          first={firstRuns}
          uploadHint={
            canWrite ? { projectSlug: project.slug, experimentSlug: experiment.slug, variant: experiment.variants[0]?.name ?? "baseline" } : undefined
          }
          empty={
            agentRun.length ? (
              <RunnableEmptyState
                canRun={canWrite}
                jobs={agentRun.length * (experiment.warmupRuns + experiment.measuredRuns)}
                workloads={runnableWorkloads}
                batchStarted={batches.length > 0}
                agentsHref={`/p/${project.slug}/agents`}
                origin={origin}
              />
            ) : undefined
          }
        />
      </section>
    </ProjectPage>
  );
}
