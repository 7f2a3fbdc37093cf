// Completing a job stores its run with the same checks and preparation as POST /api/v1/results
// (server/services/results.ts): the metrics must be the experiment's, in its units and
// directions; summaries, histograms and compressed samples are made by the same code. The write
// itself is one statement (store-job-run.ts) that also marks the job succeeded, so a run exists
// exactly when its job says so, and a retried complete stores one run however often, and in
// whatever interleaving, it arrives. A warm-up's result goes through the same checks and is then
// dropped: its job is marked succeeded without a run.
import type { Db } from "../db/client";
import { AppError, badInput, type FieldIssue } from "../errors";
import { contradictions, repeatedMetricKeys, type KnownMetric } from "../ingest/metric-checks";
import { prepareMetric } from "../ingest/prepare-metric";
import type { TCompleteReply, TCompleteRequest } from "../schemas/jobs";
import { histogramScales } from "../services/results";
import { scheduleChangePointRefresh } from "../history/refresh-scheduler";
import { repetitionsExhausted } from "../services/run-numbering";
import { holdsLastLease, jobOfProject, leaseLost, type JobState, type LeaseHolder } from "./lease";
import { storeJobRun } from "./store-job-run";

export interface CompleteOptions {
  projectSlug: string;
  /** Names the agent in the run's source detail when the run does not say. */
  agentName: string;
  /** Absolute base URL for the run's link. */
  baseUrl: string;
}

type JobRow = JobState & { warmup: boolean; experimentId: string; variantId: string; experimentSlug: string; metrics: (KnownMetric & { id: string; key: string })[] };

export async function completeJob(db: Db, holder: LeaseHolder, jobId: string, input: TCompleteRequest, options: CompleteOptions): Promise<{ reply: TCompleteReply; created: boolean }> {
  // One round trip for the job and what checking its run needs.
  const [job] = await db.$queryRaw<JobRow[]>`
    SELECT j."id", j."status"::text AS "status", j."agentId", j."leaseToken", j."runAfter", j."cancelRequested", j."warmup",
      j."experimentId", j."variantId", e."slug" AS "experimentSlug",
      COALESCE((SELECT json_agg(json_build_object('id', m."id", 'key', m."key", 'unit', m."unit", 'direction', m."direction"))
                FROM "Metric" m WHERE m."experimentId" = j."experimentId"), '[]'::json) AS "metrics"
    FROM "Job" j JOIN "Experiment" e ON e."id" = j."experimentId"
    WHERE j."id" = ${jobId} AND j."projectId" = ${holder.projectId}`;
  if (!job) throw new AppError("NOT_FOUND", `No job "${jobId}" in this agent's project`);
  if (job.status === "succeeded" && holdsLastLease(job, holder)) return { reply: await storedReply(db, jobId, options), created: false };
  if (job.status !== "leased" || !holdsLastLease(job, holder)) throw leaseLost(job, holder);

  const run = input.run;
  const repeated = repeatedMetricKeys([run], () => ["run"]);
  if (repeated.length) throw badInput(repeated);
  const known = new Map(job.metrics.map((metric) => [metric.key, metric]));
  const issues: FieldIssue[] = run.metrics.flatMap((metric, m) => {
    const path = ["run", "metrics", m];
    const metricOfExperiment = known.get(metric.key);
    if (!metricOfExperiment) return [{ path: [...path, "key"], message: `experiment "${job.experimentSlug}" has no metric "${metric.key}" (it has ${[...known.keys()].map((key) => `"${key}"`).join(", ") || "none"})` }];
    return contradictions(metric, metricOfExperiment, path);
  });
  if (issues.length) throw new AppError("UNPROCESSABLE", issues.map((issue) => issue.message).join("; "), { fieldIssues: issues });

  // CPU work before the write, as for uploads. Histograms merge with the experiment's earlier
  // ones only at the same scale: look the scales up only when this run brings values to scale.
  const now = new Date();
  const startedAt = run.startedAt ? new Date(run.startedAt) : now;
  const needsScales = run.metrics.some((metric) => metric.samples || metric.samplesBase64 || metric.histogram);
  const scales = needsScales ? await histogramScales(db, holder.projectId, job.experimentSlug) : new Map<string, number>();
  const prepared = [];
  for (const [m, metric] of run.metrics.entries()) {
    prepared.push({ metricId: (known.get(metric.key) as { id: string }).id, prepared: await prepareMetric(metric, ["run", "metrics", m], startedAt, scales) });
  }

  if (job.warmup) {
    const { count } = await db.job.updateMany({
      where: { id: jobId, agentId: holder.agentId, leaseToken: holder.leaseToken, status: "leased" },
      data: { status: "succeeded", runId: null, error: null, leaseExpiresAt: null, finishedAt: now },
    });
    if (count === 1) return { reply: { run: null, replayed: false }, created: true };
  } else {
    const stored = await storeJobRun(
      db,
      { id: jobId, agentId: holder.agentId, leaseToken: holder.leaseToken, experimentId: job.experimentId, variantId: job.variantId },
      run,
      prepared,
      { sourceDetail: `agent ${options.agentName}`, now },
    );
    if (stored) scheduleChangePointRefresh(db, job.experimentId); // after commit, in the background
    if (stored) return { reply: { run: { id: stored.id, repetition: stored.repetition, url: experimentUrl(options, job.experimentSlug) }, replayed: false }, created: true };
  }
  // Nothing written: a concurrent complete of the same job under this lease came first (this
  // call is its repetition), or the lease was lost meanwhile, or the variant's numbers ran out.
  const current = await jobOfProject(db, holder.projectId, jobId);
  if (current.status === "succeeded" && holdsLastLease(current, holder)) return { reply: await storedReply(db, jobId, options), created: false };
  if (current.status === "leased" && holdsLastLease(current, holder)) {
    const variant = await db.variant.findUniqueOrThrow({ where: { id: job.variantId }, select: { name: true } });
    throw repetitionsExhausted(variant.name, ["run"]);
  }
  throw leaseLost(current, holder);
}

function experimentUrl(options: CompleteOptions, slug: string): string {
  return `${options.baseUrl}/p/${options.projectSlug}/e/${slug}`;
}

/** The answer to a repeated complete: the run the first one stored (none for a warm-up). */
async function storedReply(db: Db, jobId: string, options: CompleteOptions): Promise<TCompleteReply> {
  const job = await db.job.findUniqueOrThrow({ where: { id: jobId }, select: { run: { select: { id: true, repetition: true, experiment: { select: { slug: true } } } } } });
  const run = job.run;
  return { run: run ? { id: run.id, repetition: run.repetition, url: experimentUrl(options, run.experiment.slug) } : null, replayed: true };
}
