// One batch as CI watches it (GET /api/v1/batches/{id}[?wait=…], `versus run`): its state, job
// counts, the agents running it, an ETA, why it waits, and once every job succeeded the verdict
// on its runs (batch-result.ts). A GET may wait up to 30 s for news: job progress is not
// announced on a channel (leases, completes and failures would each need a NOTIFY), so the wait
// re-reads the batch's counts once a second — one grouped, indexed query — and answers as soon
// as they differ from what the caller last saw (`seen`), or the batch finished.
import crypto from "node:crypto";
import type { Db } from "../db/client";
import { AppError } from "../core/errors";
import { experimentUrl } from "../http/public-origin";
import type { TBatchStatus, TBatchWaitQuery } from "../schemas/batch-runs";
import type { TJobStatus } from "../schemas/jobs";
import { batchResult } from "./batch-result";
import { listBatchWaits } from "../agents/batches";
import { estimateJobSeconds } from "../agents/estimate";

export interface BatchScope {
  projectId: string;
  projectSlug: string;
  baseUrl: string;
}

const RECHECK_MS = 1000;
const MAX_FAILURES_LISTED = 10;

/** The batch now, or (with `wait`) once it changed from `seen` or finished, or when the wait is over. */
export async function watchBatch(db: Db, scope: BatchScope, batchId: string, query: TBatchWaitQuery, signal?: AbortSignal): Promise<TBatchStatus> {
  const giveUpAt = Date.now() + query.wait * 1000;
  let progress = await readProgress(db, scope.projectId, batchId);
  const first = progress.version;
  const seen = query.seen ?? first;
  while (!progress.finished && progress.version === seen && progress.version === first && Date.now() < giveUpAt && !signal?.aborted) {
    await new Promise((resolve) => setTimeout(resolve, Math.min(RECHECK_MS, Math.max(0, giveUpAt - Date.now()))));
    progress = await readProgress(db, scope.projectId, batchId);
  }
  return describeBatch(db, scope, progress, query.minChange);
}

type Progress = Awaited<ReturnType<typeof readProgress>>;

async function readProgress(db: Db, projectId: string, batchId: string) {
  const batch = await db.jobBatch.findFirst({
    where: { id: batchId, projectId },
    include: { experiment: { select: { id: true, slug: true, title: true } } },
  });
  if (!batch) throw new AppError("NOT_FOUND", `No batch "${batchId}" in this API key's project`);
  const [counts, running] = await Promise.all([
    db.job.groupBy({ by: ["status"], where: { batchId }, _count: { _all: true } }),
    db.job.groupBy({ by: ["agentId"], where: { batchId, status: "leased" }, _count: { _all: true } }),
  ]);
  const tally: Record<TJobStatus, number> = { queued: 0, leased: 0, succeeded: 0, failed: 0, cancelled: 0 };
  for (const row of counts) tally[row.status] = row._count._all;
  const runningOn = running
    .map((row) => ({ agentId: row.agentId, running: row._count._all }))
    .sort((a, b) => String(a.agentId).localeCompare(String(b.agentId)));
  const finished = tally.queued + tally.leased === 0;
  const version = crypto
    .createHash("sha256")
    .update(JSON.stringify([tally, runningOn, batch.cancelledAt]))
    .digest("base64url")
    .slice(0, 16);
  return { batch, tally, runningOn, finished, version };
}

async function describeBatch(db: Db, scope: BatchScope, progress: Progress, minChange: number): Promise<TBatchStatus> {
  const { batch, tally, runningOn, finished, version } = progress;
  const total = Object.values(tally).reduce((a, b) => a + b, 0);
  const state: TBatchStatus["state"] = batch.cancelledAt
    ? "cancelled"
    : !finished
      ? tally.queued === total
        ? "queued"
        : "running"
      : tally.failed > 0
        ? "failed"
        : tally.cancelled > 0
          ? "cancelled"
          : "succeeded";
  const url = experimentUrl(scope.baseUrl, scope.projectSlug, batch.experiment.slug);

  const [variants, agents, failures, waiting, eta] = await Promise.all([
    db.job.findMany({ where: { batchId: batch.id }, distinct: ["variantId"], select: { variant: { select: { name: true, position: true } } } }),
    db.agent.findMany({ where: { id: { in: runningOn.flatMap((row) => (row.agentId ? [row.agentId] : [])) } }, select: { id: true, name: true } }),
    db.job.findMany({
      where: { batchId: batch.id, status: "failed" },
      orderBy: { position: "asc" },
      take: MAX_FAILURES_LISTED,
      select: { error: true, variant: { select: { name: true } } },
    }),
    finished ? Promise.resolve([]) : listBatchWaits(db, scope.projectId, batch),
    finished ? Promise.resolve(null) : etaSeconds(db, scope.projectId, batch.experiment.slug, batch.id, Math.max(1, runningOn.length)),
  ]);
  const nameOf = new Map(agents.map((agent) => [agent.id, agent.name]));

  return {
    id: batch.id,
    experiment: { slug: batch.experiment.slug, title: batch.experiment.title, url },
    state,
    createdAt: batch.createdAt.toISOString(),
    cancelledAt: batch.cancelledAt?.toISOString() ?? null,
    order: batch.order,
    seed: batch.seed,
    variants: variants.sort((a, b) => a.variant.position - b.variant.position).map((row) => row.variant.name),
    noise: batch.noise,
    commit: batch.gitCommit,
    branch: batch.gitBranch,
    jobs: { total, ...tally },
    agents: runningOn.map((row) => ({ name: (row.agentId && nameOf.get(row.agentId)) || "an agent", running: row.running })),
    etaSeconds: eta,
    waiting,
    failures: failures.map((job) => ({ variant: job.variant.name, error: job.error ?? "failed without a message" })),
    version,
    result:
      state === "succeeded"
        ? await batchResult(
            db,
            scope.projectId,
            {
              id: batch.id,
              experimentId: batch.experiment.id,
              commit: batch.gitCommit,
              branch: batch.gitBranch,
              url,
              noise: batch.noise,
              createdAt: batch.createdAt,
            },
            minChange,
          )
        : null,
  };
}

/** The unfinished jobs' time by each variant's median earlier job, shared among the agents running the batch. */
async function etaSeconds(db: Db, projectId: string, experimentSlug: string, batchId: string, agents: number): Promise<number | null> {
  const [estimates, left] = await Promise.all([
    estimateJobSeconds(db, projectId, experimentSlug),
    db.job.groupBy({ by: ["variantId"], where: { batchId, status: { in: ["queued", "leased"] } }, _count: { _all: true } }),
  ]);
  const names = await db.variant.findMany({ where: { id: { in: left.map((row) => row.variantId) } }, select: { id: true, name: true } });
  let seconds = 0;
  for (const row of left) {
    const name = names.find((variant) => variant.id === row.variantId)?.name;
    const each = estimates.find((estimate) => estimate.variant === name)?.seconds;
    if (each === null || each === undefined) return null;
    seconds += each * row._count._all;
  }
  return Math.round(seconds / agents);
}
