// Completing a job stores its run with the same checks and preparation as POST /api/v1/results
// (server/runs/ingest-results.ts): the metrics must be the experiment's, in its units and
// directions; summaries, histograms and compressed samples are made by the same code. The write
// itself is one statement (storeJobRun in store-runs.ts) that also marks the job succeeded, so a
// run exists exactly when its job says so, and a retried complete stores one run however often,
// and in whatever interleaving, it arrives. A warm-up's result goes through the same checks and
// is then dropped: its job is marked succeeded without a run.
import { type Db } from "../db/client";
import { Prisma } from "../db/generated/client";
import { AppError, badInput, type FieldIssue, issuesSummary } from "../core/errors";
import { contradictions, repeatedMetricKeys, type KnownMetric } from "../runs/metric-checks";
import { prepareRuns } from "../runs/prepare-metric";
import type { TCompleteReply, TCompleteRequest } from "../schemas/jobs";
import { experimentUrl } from "../http/public-origin";
import { queryAsAgent, type AgentCredential, type AgentPrincipal } from "./agents";
import { repetitionsExhausted } from "../runs/run-numbering";
import { holdsLastLease, jobOfProject, type JobState, type LeaseHolder } from "./lease";
import { leaseLost } from "./lease-conflict";
import { storeRunOfJob } from "./store-job-run";
import { completeShard } from "./complete-shard";

export interface CompleteOptions {
  projectSlug: string;
  /** Names the agent in the run's source detail when the run does not say. */
  agentName: string;
  /** Absolute base URL for the run's link. */
  baseUrl: string;
}

type JobRow = Pick<JobState, "id" | "status" | "agentId" | "leaseToken" | "runAfter" | "cancelRequested"> & {
  warmup: boolean;
  /** The job group the job is a shard of, or null for a lone job. */
  groupId: string | null;
  experimentId: string;
  variantId: string;
  experimentSlug: string;
  metrics: (KnownMetric & { id: string; key: string })[];
  /** The commit the batch was started for (POST …/batches): stamped on the run over what the agent says. */
  stamp: BatchStamp;
};

interface BatchStamp {
  gitCommit: string | null;
  gitBranch: string | null;
  gitCommitMessage: string | null;
  gitCommitTime: Date | null;
}

/** What a complete needs before it can check anything: the caller, admitted, and the job, as seen from its project. */
export interface JobToComplete {
  principal: AgentPrincipal;
  job: JobRow | undefined;
}

/**
 * Reads, in one round trip with the caller's authentication, the job and what checking its run
 * needs, and admits the caller (401 saying what is wrong). The job is looked for in the caller's
 * project only.
 */
export async function jobToCompleteAs(db: Db, credential: AgentCredential, jobId: string): Promise<JobToComplete> {
  const { principal, row } = await queryAsAgent<{
    [K in keyof (Omit<JobRow, "stamp"> & BatchStamp) as `job_${K}`]: (Omit<JobRow, "stamp"> & BatchStamp)[K] | null;
  }>(
    db,
    credential,
    Prisma.sql`
    SELECT caller.*, j."id" AS "job_id", j."status"::text AS "job_status", j."agentId" AS "job_agentId", j."leaseToken" AS "job_leaseToken",
      j."runAfter" AS "job_runAfter", j."cancelRequested" AS "job_cancelRequested", j."warmup" AS "job_warmup", j."groupId" AS "job_groupId",
      j."experimentId" AS "job_experimentId", j."variantId" AS "job_variantId", e."slug" AS "job_experimentSlug",
      b."gitCommit" AS "job_gitCommit", b."gitBranch" AS "job_gitBranch", b."gitCommitMessage" AS "job_gitCommitMessage", b."gitCommitTime" AS "job_gitCommitTime",
      COALESCE((SELECT json_agg(json_build_object('id', m."id", 'key', m."key", 'unit', m."unit", 'direction', m."direction"))
                FROM "Metric" m WHERE m."experimentId" = j."experimentId"), '[]'::json) AS "job_metrics"
    FROM caller LEFT JOIN ("Job" j JOIN "Experiment" e ON e."id" = j."experimentId" JOIN "JobBatch" b ON b."id" = j."batchId")
      ON j."id" = ${jobId} AND j."projectId" = caller."projectId"`,
  );
  if (row.job_id === null) return { principal, job: undefined };
  const job = {
    id: row.job_id,
    status: row.job_status,
    agentId: row.job_agentId,
    leaseToken: row.job_leaseToken,
    runAfter: row.job_runAfter,
    cancelRequested: row.job_cancelRequested,
    warmup: row.job_warmup,
    groupId: row.job_groupId,
    experimentId: row.job_experimentId,
    variantId: row.job_variantId,
    experimentSlug: row.job_experimentSlug,
    metrics: row.job_metrics,
    stamp: { gitCommit: row.job_gitCommit, gitBranch: row.job_gitBranch, gitCommitMessage: row.job_gitCommitMessage, gitCommitTime: row.job_gitCommitTime },
  } as JobRow;
  return { principal, job };
}

/** Stores the run of a job read by jobToCompleteAs, for the agent holding its lease. */
export async function completeJob(
  db: Db,
  holder: LeaseHolder,
  jobId: string,
  job: JobRow | undefined,
  input: TCompleteRequest,
  options: CompleteOptions,
): Promise<{ reply: TCompleteReply; created: boolean }> {
  if (!job) throw new AppError("NOT_FOUND", `No job "${jobId}" in this agent's project`);
  if (job.status === "succeeded" && holdsLastLease(job, holder)) return { reply: await storedReply(db, jobId, options), created: false };
  // (Said from the job as it is now, with what the explanation needs: the read above has only what a complete does.)
  if (job.status !== "leased" || !holdsLastLease(job, holder)) throw leaseLost(await jobOfProject(db, holder.projectId, jobId), holder);

  const run = { ...input.run, ...stampOf(job.stamp) };
  const repeated = repeatedMetricKeys([run], () => ["run"]);
  if (repeated.length) throw badInput(repeated);
  const known = new Map(job.metrics.map((metric) => [metric.key, metric]));
  const issues: FieldIssue[] = run.metrics.flatMap((metric, m) => {
    const path = ["run", "metrics", m];
    const metricOfExperiment = known.get(metric.key);
    if (!metricOfExperiment)
      return [
        {
          path: [...path, "key"],
          message: `experiment "${job.experimentSlug}" has no metric "${metric.key}" (it has ${[...known.keys()].map((key) => `"${key}"`).join(", ") || "none"})`,
        },
      ];
    return contradictions(metric, metricOfExperiment, path);
  });
  if (issues.length) throw new AppError("UNPROCESSABLE", issuesSummary(issues), { fieldIssues: issues });

  // A shard of a measured group: kept until the last shard's complete stores the group's merged run.
  let toStore = run;
  let sourceDetail = `agent ${options.agentName}`;
  if (job.groupId && !job.warmup) {
    // With the experiment's units: the merge sums counts and rates, and a shard may leave units out.
    const withUnits = { ...run, metrics: run.metrics.map((metric) => ({ ...metric, unit: metric.unit ?? known.get(metric.key)?.unit })) };
    const shard = await completeShard(db, holder, jobId, job.groupId, withUnits, options.agentName);
    if (shard.kind === "waiting") return { reply: { run: null, replayed: false }, created: true };
    if (shard.kind === "last") {
      toStore = shard.merged;
      sourceDetail = shard.merged.sourceDetail ?? sourceDetail;
    }
  }

  const now = new Date();
  if (job.warmup) {
    // A warm-up's run is checked as a measured one would be (its samples, histograms), then dropped.
    await prepareRuns(db, { projectId: holder.projectId, slug: job.experimentSlug }, [toStore], () => ["run"], now);
    const { count } = await db.job.updateMany({
      where: { id: jobId, agentId: holder.agentId, leaseToken: holder.leaseToken, status: "leased" },
      data: { status: "succeeded", runId: null, error: null, leaseExpiresAt: null, finishedAt: now },
    });
    if (count === 1) return { reply: { run: null, replayed: false }, created: true };
  } else {
    const stored = await storeRunOfJob(
      db,
      { projectId: holder.projectId, slug: job.experimentSlug, metricIds: new Map(job.metrics.map((metric) => [metric.key, metric.id])) },
      { id: jobId, agentId: holder.agentId, leaseToken: holder.leaseToken, experimentId: job.experimentId, variantId: job.variantId },
      toStore,
      { sourceDetail, now },
    );
    if (stored)
      return {
        reply: {
          run: { id: stored.id, repetition: stored.repetition, url: experimentUrl(options.baseUrl, options.projectSlug, job.experimentSlug) },
          replayed: false,
        },
        created: true,
      };
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

/** The batch's commit fields that are set (a batch started without a commit leaves the agent's own). */
function stampOf(stamp: BatchStamp) {
  return {
    ...(stamp.gitCommit ? { gitCommit: stamp.gitCommit } : {}),
    ...(stamp.gitBranch ? { gitBranch: stamp.gitBranch } : {}),
    ...(stamp.gitCommitMessage ? { gitCommitMessage: stamp.gitCommitMessage } : {}),
    ...(stamp.gitCommitTime ? { gitCommitTime: stamp.gitCommitTime.toISOString() } : {}),
  };
}

/** The answer to a repeated complete: the run the first one stored (none for a warm-up). */
async function storedReply(db: Db, jobId: string, options: CompleteOptions): Promise<TCompleteReply> {
  const job = await db.job.findUniqueOrThrow({
    where: { id: jobId },
    select: { run: { select: { id: true, repetition: true, experiment: { select: { slug: true } } } } },
  });
  const run = job.run;
  return {
    run: run ? { id: run.id, repetition: run.repetition, url: experimentUrl(options.baseUrl, options.projectSlug, run.experiment.slug) } : null,
    replayed: true,
  };
}
