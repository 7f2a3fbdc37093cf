// Evaluates an experiment's alert rules after its runs changed (called by the background work
// in server/background/worker.ts, after the change points were recomputed), opens an
// alert per breach — at most one per rule, variant and commit, however often runs arrive — and
// POSTs each new alert to its rule's webhook. A rule with confirmRuns on an agent-run experiment
// first dispatches a confirmation batch and alerts only when it agrees (confirmation.ts). The
// statistics are the ones the rest of Versus uses: per-commit series from commit-series.ts, change points from change-point-store.ts, and
// the comparison engine (compareMetric: Mann-Whitney U, direction-aware verdict).
import type { Db } from "../db/client";
import type { AlertRuleKind } from "../db/generated/enums";
import type { CommitPoint, SeriesSubject } from "../history/commit-series";
import { currentSeries, pointsOf } from "../history/stored-series";
import { compareMetric } from "../stats/compare";
import { median } from "../stats/descriptive";
import { formatChange, formatMeasure, formatP } from "../display/display";
import { announceAlert, ruleToAnnounce } from "./announce-alert";
import { dispatchConfirmation, flaggingBatches, settleConfirmations } from "./confirmation";
import { worseBy } from "./confirmation-verdict";

/** A rule as evaluation needs it. */
export interface RuleToEvaluate {
  id: string;
  kind: AlertRuleKind;
  branch: string | null;
  alpha: number | null;
  thresholdPercent: number | null;
  recentRuns: number | null;
  windowSize: number | null;
}

export interface Breach {
  commit: string;
  message: string;
  value: number | null;
  baselineValue: number | null;
  changePercent: number | null;
  pValue: number | null;
}

type Subject = SeriesSubject;

const on = (branch: string | null) => (branch ? ` on ${branch}` : "");

/** (b) The latest commit's median against the pooled runs of the windowSize commits before it. */
export function percentBoundBreach(rule: RuleToEvaluate, subject: Subject, series: CommitPoint[]): Breach | null {
  const window = rule.windowSize ?? 0;
  const threshold = rule.thresholdPercent ?? Infinity;
  const latest = series.at(-1);
  const before = series.slice(Math.max(0, series.length - 1 - window), -1);
  if (!latest || before.length === 0) return null;
  const baseline = median(before.flatMap((point) => point.runValues));
  if (baseline === 0) return null;
  const percent = (latest.median / baseline - 1) * 100;
  if (!(worseBy(percent, subject.metric.direction) > threshold)) return null;
  const { key, unit } = subject.metric;
  return {
    commit: latest.commit,
    message: `${key}${on(rule.branch)} (${subject.variant.name}): ${formatMeasure(latest.median, unit)} at ${latest.commit.slice(0, 12)} is ${formatChange(percent)} against ${formatMeasure(baseline, unit)}, the median of the ${before.length} commit(s) before — worse than the ${threshold}% bound`,
    value: latest.median,
    baselineValue: baseline,
    changePercent: percent,
    pValue: null,
  };
}

/** (c) The last recentRuns runs against the windowSize runs before them, with the comparison engine. */
export function mannWhitneyBreach(rule: RuleToEvaluate, subject: Subject, series: CommitPoint[]): Breach | null {
  const recent = rule.recentRuns ?? 0;
  const window = rule.windowSize ?? 0;
  const runs = series.flatMap((point) => point.runValues);
  const latest = series.at(-1);
  if (!latest || recent < 1 || window < 1 || runs.length < recent + window) return null;
  const { key, unit, direction } = subject.metric;
  const result = compareMetric(
    { key, unit, direction },
    [
      { name: "window", isBaseline: true, replicates: runs.slice(runs.length - recent - window, runs.length - recent) },
      { name: "recent", isBaseline: false, replicates: runs.slice(runs.length - recent) },
    ],
    { alpha: rule.alpha ?? 0.05 },
  );
  const tested = result.comparisons[0];
  if (!tested || tested.verdict !== "worse") return null;
  const value = result.variants.find((v) => !v.isBaseline)?.median ?? null;
  const baselineValue = result.variants.find((v) => v.isBaseline)?.median ?? null;
  const p = tested.mannWhitney?.p ?? null;
  return {
    commit: latest.commit,
    message: `${key}${on(rule.branch)} (${subject.variant.name}): the last ${recent} runs (to ${latest.commit.slice(0, 12)}) are worse than the ${window} before them — median ${value === null ? "—" : formatMeasure(value, unit)} against ${baselineValue === null ? "—" : formatMeasure(baselineValue, unit)}${tested.change.percent === null ? "" : ` (${formatChange(tested.change.percent)})`}, Mann-Whitney p = ${p === null ? "—" : formatP(p)} ≤ α = ${rule.alpha}`,
    value,
    baselineValue,
    changePercent: tested.change.percent,
    pValue: p,
  };
}

/** A stored change point, as a change-point rule reads it. */
export interface StoredChangePoint {
  metricId: string;
  variantId: string;
  branch: string;
  commit: string;
  previousCommit: string;
  changePercent: number | null;
  verdict: "regression" | "improvement";
  pValue: number;
  foundAt: Date;
}

/**
 * (a) Each change point of this series that is a regression at the rule's significance, found
 * since the rule exists and not dismissed. Read from the stored change points rather than from
 * what one refresh found, so a retried evaluation (after a failure, or a worker that died) still
 * alerts on it; the unique (rule, variant, commit) keeps that to one alert.
 */
export function changePointBreaches(rule: RuleToEvaluate & { createdAt: Date }, subject: Subject, stored: StoredChangePoint[]): Breach[] {
  const alpha = rule.alpha ?? 0.05;
  return stored
    .filter((point) => point.metricId === subject.metric.id && point.variantId === subject.variant.id && point.branch === (rule.branch ?? ""))
    .filter((point) => point.verdict === "regression" && point.pValue <= alpha && point.foundAt >= rule.createdAt)
    .map((point) => ({
      commit: point.commit,
      message: `${subject.metric.key}${on(rule.branch)} (${subject.variant.name}): the level shifted between ${point.previousCommit.slice(0, 12)} and ${point.commit.slice(0, 12)}${point.changePercent === null ? "" : ` by ${formatChange(point.changePercent)}`} — a regression (change point p = ${formatP(point.pValue)} ≤ α = ${alpha})`,
      value: null,
      baselineValue: null,
      changePercent: point.changePercent,
      pValue: point.pValue,
    }));
}

/** Evaluates every enabled rule of the experiment. Returns the ids of the alerts it opened. */
export async function evaluateAlertRules(db: Db, experimentId: string): Promise<string[]> {
  // Breaches whose confirmation batch has finished open (and are announced) or are turned away first.
  const opened: string[] = await settleConfirmations(db, experimentId);
  const rules = await db.alertRule.findMany({
    where: { experimentId, enabled: true },
    include: ruleToAnnounce,
  });
  const changePoints = rules.some((rule) => rule.kind === "change_point")
    ? await db.changePoint.findMany({
        where: { experimentId, verdict: "regression", status: { not: "dismissed" } },
        select: {
          metricId: true,
          variantId: true,
          branch: true,
          commit: true,
          previousCommit: true,
          changePercent: true,
          verdict: true,
          pValue: true,
          foundAt: true,
        },
      })
    : [];
  for (const rule of rules) {
    const variants = rule.variant ? [rule.variant] : rule.experiment.variants;
    for (const variant of variants) {
      const subject: Subject = { metric: rule.metric, variant };
      let breaches: Breach[];
      if (rule.kind === "change_point") breaches = changePointBreaches(rule, subject, changePoints);
      else {
        // The refresh that just ran stored the series: a read, not an aggregate over every run.
        const series = pointsOf((await currentSeries(db, subject, rule.branch)).columns);
        const breach = rule.kind === "percent_bound" ? percentBoundBreach(rule, subject, series) : mannWhitneyBreach(rule, subject, series);
        breaches = breach ? [breach] : [];
      }
      if (breaches.length === 0) continue;
      // The unique (rule, variant, commit) is the dedupe: a breach already alerted is skipped,
      // also when two evaluations race; only rows created here are returned (and announced). A
      // rule that confirms first records the breach as confirming when agents ran its runs.
      const flagging = rule.confirmRuns ? await flaggingBatches(db, variant.id, breaches) : new Map<string, string>();
      const created = await db.alert.createManyAndReturn({
        data: breaches.map((breach) => ({
          projectId: rule.projectId,
          ruleId: rule.id,
          variantId: variant.id,
          branch: rule.branch ?? "",
          ...breach,
          batchId: flagging.get(breach.commit) ?? null,
          status: flagging.has(breach.commit) ? ("confirming" as const) : ("open" as const),
        })),
        skipDuplicates: true,
      });
      for (const alert of created) {
        if (alert.status === "confirming") {
          // Announced (or not) once its confirmation batch has run: settleConfirmations.
          if (await dispatchConfirmation(db, rule, subject, alert)) continue;
        }
        opened.push(alert.id);
        await announceAlert(db, rule, variant.name, alert);
      }
    }
  }
  return opened;
}
