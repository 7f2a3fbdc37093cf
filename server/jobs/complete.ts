// Completing a job stores its run through the same ingest code as POST /api/v1/results, as one
// run of the job's experiment and variant (as they are named now), with source "agent". The job
// is marked succeeded in the ingest transaction, so a run exists exactly when its job says so.
// Idempotency key "job:<id>" and the check of the job's state make a retried complete store one
// run however often, and in whatever interleaving, it arrives. A warm-up's result goes through
// the same checks inside the transaction, which is then rolled back: nothing of it is kept.
import type { Db } from "../db/client";
import { AppError, badInput, type FieldIssue } from "../errors";
import type { TCompleteReply, TCompleteRequest } from "../schemas/jobs";
import { ingestResults } from "../services/results";
import { holdsLastLease, jobOfProject, leaseLost, type JobState, type LeaseHolder } from "./lease";

export interface CompleteOptions {
  projectSlug: string;
  /** Names the agent in the run's source detail when the run does not say. */
  agentName: string;
  /** SHA-256 of the request body (ingest's idempotency record). */
  bodySha256: string;
  /** Absolute base URL for the run's link. */
  baseUrl: string;
}

/** Thrown inside the ingest transaction of a warm-up to roll it back once its checks passed. */
class WarmupChecked extends Error {}

export async function completeJob(db: Db, holder: LeaseHolder, jobId: string, input: TCompleteRequest, options: CompleteOptions): Promise<{ reply: TCompleteReply; created: boolean }> {
  // One round trip with the names ingest needs (Prisma would fetch the relations separately).
  const [job] = await db.$queryRaw<(JobState & { warmup: boolean; experimentSlug: string; variantName: string })[]>`
    SELECT j."id", j."status"::text AS "status", j."agentId", j."leaseToken", j."runAfter", j."cancelRequested", j."warmup",
      e."slug" AS "experimentSlug", v."name" AS "variantName"
    FROM "Job" j JOIN "Experiment" e ON e."id" = j."experimentId" JOIN "Variant" v ON v."id" = j."variantId"
    WHERE j."id" = ${jobId} AND j."projectId" = ${holder.projectId}`;
  if (!job) throw new AppError("NOT_FOUND", `No job "${jobId}" in this agent's project`);
  if (job.status === "succeeded" && holdsLastLease(job, holder)) return { reply: await storedReply(db, jobId, options), created: false };
  if (job.status !== "leased" || !holdsLastLease(job, holder)) throw leaseLost(job, holder);

  const finish = async (tx: Pick<Db, "job">, runId: string | null) => {
    const { count } = await tx.job.updateMany({
      where: { id: jobId, agentId: holder.agentId, leaseToken: holder.leaseToken, status: "leased" },
      data: { status: "succeeded", runId, error: null, leaseExpiresAt: null, finishedAt: new Date() },
    });
    if (count !== 1) throw leaseLost(await jobOfProject(db, holder.projectId, jobId), holder);
  };

  try {
    const stored = await ingestResults(
      db,
      { experiment: job.experimentSlug, create: false, runs: [{ ...input.run, variant: job.variantName }] },
      {
        projectId: holder.projectId,
        projectSlug: options.projectSlug,
        source: "agent",
        sourceDetail: `agent ${options.agentName}`,
        idempotencyKey: `job:${jobId}`,
        bodySha256: options.bodySha256,
        baseUrl: options.baseUrl,
        afterStore: async (tx, result) => {
          if (job.warmup) throw new WarmupChecked();
          await finish(tx, result.runs[0]?.id ?? null);
        },
      },
    );
    // A concurrent complete of the same job committed first: ingest answered with its run.
    if (stored.replayed) return { reply: await storedReply(db, jobId, options), created: false };
    const run = stored.runs[0];
    return { reply: { run: run ? { id: run.id, repetition: run.repetition, url: stored.experiment.url } : null, replayed: false }, created: true };
  } catch (error) {
    if (error instanceof WarmupChecked) {
      await finish(db, null);
      return { reply: { run: null, replayed: false }, created: true };
    }
    // Lost a race with a concurrent complete (of another body, say): if that one finished the
    // job under this lease, this call is its repetition.
    const now = await db.job.findUnique({ where: { id: jobId }, select: { status: true, agentId: true, leaseToken: true } });
    if (now?.status === "succeeded" && now.agentId === holder.agentId && now.leaseToken === holder.leaseToken) {
      return { reply: await storedReply(db, jobId, options), created: false };
    }
    throw asRunError(error);
  }
}

/** The answer to a repeated complete: the run the first one stored (none for a warm-up). */
async function storedReply(db: Db, jobId: string, options: CompleteOptions): Promise<TCompleteReply> {
  const job = await db.job.findUniqueOrThrow({ where: { id: jobId }, select: { run: { select: { id: true, repetition: true, experiment: { select: { slug: true } } } } } });
  const run = job.run;
  return { run: run ? { id: run.id, repetition: run.repetition, url: `${options.baseUrl}/p/${options.projectSlug}/e/${run.experiment.slug}` } : null, replayed: true };
}

/**
 * Ingest names fields of an upload ("runs.0.metrics.1.unit"); the agent sent one run under
 * "run", so point the paths there.
 */
function asRunError(error: unknown): unknown {
  if (!(error instanceof AppError) || error.fieldIssues.length === 0) return error;
  const issues: FieldIssue[] = error.fieldIssues.map((issue) =>
    issue.path[0] === "runs" && issue.path[1] === 0 ? { ...issue, path: ["run", ...issue.path.slice(2)] } : issue,
  );
  if (error.code === "BAD_REQUEST") return badInput(issues);
  return new AppError(error.code, error.message, { fieldIssues: issues, cause: error });
}
