// Confirmation before alarm. A rule with confirmRuns that breaches on runs agents ran (a batch
// stored them) records the breach as a "confirming" alert and dispatches a confirmation batch:
// the flagging batch's definition (its variants, agent pin, labels and commit) with confirmRuns
// measured runs per variant, interleaved. When that batch has finished, the next evaluation of the
// experiment's rules (its runs mark the experiment like any others) settles the alert: open and
// announced when the confirmation agrees (confirmation-verdict.ts), "unconfirmed" — never shown as
// an alarm — when it does not, and open with the reason when it could not run (a failed or
// cancelled batch, no online agent): an alarm is never swallowed because the check failed.
import type { Db, Prisma } from "../db/client";
import { AppError } from "../core/errors";
import { startBatch } from "../agents/batches";
import type { SeriesSubject } from "../history/commit-series";
import { currentSeries, pointsOf } from "../history/stored-series";
import { hasFiniteFigures, storedFigures } from "../runs/finite-figures";
import { runFigure } from "../runs/run-figure";
import type { TLabels } from "../schemas/labels";
import { announceAlert, ruleToAnnounce, type RuleToAnnounce } from "./announce-alert";
import { confirmationVerdict } from "./confirmation-verdict";

type AlertRow = Prisma.AlertGetPayload<object>;

/** For each breached commit whose runs of the variant agents ran: the latest batch that stored some, by commit. */
export async function flaggingBatches(db: Db, variantId: string, breaches: { commit: string }[]): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  for (const { commit } of breaches) {
    const job = await db.job.findFirst({
      where: { variantId, status: "succeeded", run: { is: { gitCommit: commit, status: "succeeded" } }, batch: { noise: false } },
      orderBy: { createdAt: "desc" },
      select: { batchId: true },
    });
    if (job) found.set(commit, job.batchId);
  }
  return found;
}

/**
 * Starts the confirmation batch of a confirming alert. True when it started (the alert waits for
 * it); false when it could not — the alert is then opened with the reason, for the caller to announce.
 */
export async function dispatchConfirmation(db: Db, rule: RuleToAnnounce, subject: SeriesSubject, alert: AlertRow): Promise<boolean> {
  const flagged = alert.batchId
    ? await db.jobBatch.findUnique({
        where: { id: alert.batchId },
        select: {
          pinnedAgentId: true,
          requiredLabels: true,
          gitBranch: true,
          gitCommitMessage: true,
          gitCommitTime: true,
          jobs: { distinct: ["variantId"], select: { variant: { select: { name: true, position: true } } } },
        },
      })
    : null;
  try {
    if (!flagged || !rule.confirmRuns) throw new AppError("NOT_FOUND", "the batch that flagged it is gone");
    const variants = flagged.jobs.map((job) => job.variant).sort((a, b) => a.position - b.position);
    const started = await startBatch(
      db,
      rule.projectId,
      null,
      {
        experimentSlug: rule.experiment.slug,
        variants: variants.some((variant) => variant.name === subject.variant.name) ? variants.map((variant) => variant.name) : [subject.variant.name],
        runs: rule.confirmRuns,
        order: "interleaved",
        labels: flagged.requiredLabels as TLabels,
        agentId: flagged.pinnedAgentId ?? undefined,
        maxAttempts: 3,
        commit: alert.commit,
        branch: flagged.gitBranch ?? (alert.branch || undefined),
        commitMessage: flagged.gitCommitMessage ?? undefined,
        commitTime: flagged.gitCommitTime?.toISOString(),
      },
      // Queued for an agent that is off, the alarm would wait for nobody.
      { requireOnlineAgent: true },
    );
    await db.alert.update({ where: { id: alert.id }, data: { confirmBatchId: started.id } });
    return true;
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    const confirmation = `Not confirmed before alerting: the confirmation batch could not start (${error.message})`;
    await db.alert.update({ where: { id: alert.id }, data: { status: "open", confirmation } });
    Object.assign(alert, { status: "open", confirmation });
    return false;
  }
}

/** Settles the experiment's confirming alerts whose batch has finished; returns the ids of those it opened. */
export async function settleConfirmations(db: Db, experimentId: string): Promise<string[]> {
  const pending = await db.alert.findMany({
    where: { status: "confirming", rule: { experimentId } },
    include: { rule: { include: ruleToAnnounce }, variant: { select: { id: true, name: true } } },
  });
  const opened: string[] = [];
  for (const alert of pending) {
    const { rule, variant, ...row } = alert;
    const subject: SeriesSubject = { metric: rule.metric, variant };
    if (!row.confirmBatchId) {
      // Dispatch did not get to start it (the worker stopped in between): start it now.
      if (await dispatchConfirmation(db, rule, subject, row)) continue;
    } else {
      const outcome = await confirmationOutcome(db, rule, subject, row);
      if (outcome === null) continue;
      const { count } = await db.alert.updateMany({
        where: { id: row.id, status: "confirming" },
        data: { status: outcome.open ? "open" : "unconfirmed", confirmation: outcome.text },
      });
      if (count === 0 || !outcome.open) continue;
      row.confirmation = outcome.text;
    }
    opened.push(row.id);
    await announceAlert(db, rule, variant.name, row);
  }
  return opened;
}

/** Null while the confirmation batch still has work; else whether the alert opens and why. */
async function confirmationOutcome(db: Db, rule: RuleToAnnounce, subject: SeriesSubject, alert: AlertRow): Promise<{ open: boolean; text: string } | null> {
  const batchId = alert.confirmBatchId as string;
  const batch = await db.jobBatch.findUnique({ where: { id: batchId }, select: { cancelledAt: true } });
  const counts = await db.job.groupBy({ by: ["status"], where: { batchId }, _count: { _all: true } });
  const count = (status: string) => counts.find((row) => row.status === status)?._count._all ?? 0;
  if (!batch) return { open: true, text: "Not confirmed before alerting: the confirmation batch was deleted" };
  if (!batch.cancelledAt && count("queued") + count("leased") > 0) return null;
  if (batch.cancelledAt || count("failed") + count("cancelled") > 0)
    return {
      open: true,
      text: `Not confirmed before alerting: the confirmation batch ${batch.cancelledAt ? "was cancelled" : `had ${count("failed")} failed job(s)`}`,
    };

  const series = pointsOf((await currentSeries(db, subject, rule.branch)).columns);
  const at = series.findIndex((point) => point.commit === alert.commit);
  const before = (at < 0 ? series.filter((point) => point.commit !== alert.commit) : series.slice(0, at)).map((point) => point.runValues);
  const rows = await db.runMetricResult.findMany({
    where: { metricId: rule.metric.id, run: { status: "succeeded", variantId: subject.variant.id, job: { batchId } } },
    select: storedFigures,
  });
  const confirming = rows.filter(hasFiniteFigures).map((row) => runFigure(row, rule.metric.aggregation));
  const verdict = confirmationVerdict(rule, rule.metric, before, confirming);
  if (!verdict)
    return {
      open: true,
      text: "Not confirmed before alerting: the confirmation batch left nothing to compare (no runs of this metric, or none before the commit)",
    };
  return { open: verdict.agrees, text: verdict.text };
}
