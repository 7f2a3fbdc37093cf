// Alert rules and alerts of a project: create, list, switch off and delete rules; list alerts and
// acknowledge or resolve them. Every call is scoped to the caller's project: an id from another
// project answers exactly like one that does not exist. Evaluation is in
// server/regressions/evaluate-rules.ts.
import type { Db } from "../db/client";
import { AppError } from "../core/errors";
import type { TAlertRuleInput } from "../schemas/alerts";

export interface AlertScope {
  projectId: string;
}

export async function createAlertRule(db: Db, scope: AlertScope, experimentSlug: string, rule: TAlertRuleInput, createdById: string | null) {
  const experiment = await db.experiment.findUnique({
    where: { projectId_slug: { projectId: scope.projectId, slug: experimentSlug } },
    select: { id: true, metrics: { select: { id: true, key: true } }, variants: { select: { id: true, name: true } } },
  });
  if (!experiment) throw new AppError("NOT_FOUND", `No experiment "${experimentSlug}" in this project`);
  const metric = experiment.metrics.find((m) => m.key === rule.metric);
  if (!metric)
    throw new AppError("UNPROCESSABLE", `No metric "${rule.metric}" in this experiment`, {
      fieldIssues: [{ path: ["rule", "metric"], message: "not a metric of this experiment" }],
    });
  const variant = rule.variant ? experiment.variants.find((v) => v.name === rule.variant) : null;
  if (variant === undefined)
    throw new AppError("UNPROCESSABLE", `No variant "${rule.variant}" in this experiment`, {
      fieldIssues: [{ path: ["rule", "variant"], message: "not a variant of this experiment" }],
    });
  // Only the fields of the rule's kind are kept, so a rule never carries a setting it ignores.
  const kindFields = {
    change_point: { alpha: rule.alpha },
    percent_bound: { thresholdPercent: rule.thresholdPercent, windowSize: rule.windowSize },
    mann_whitney: { alpha: rule.alpha, recentRuns: rule.recentRuns, windowSize: rule.windowSize },
  }[rule.kind];
  return db.alertRule.create({
    data: {
      projectId: scope.projectId,
      experimentId: experiment.id,
      metricId: metric.id,
      variantId: variant?.id ?? null,
      branch: rule.branch || null,
      kind: rule.kind,
      ...kindFields,
      webhookUrl: rule.webhookUrl || null,
      confirmRuns: rule.confirmRuns ?? null,
      createdById,
    },
    select: { id: true },
  });
}

export async function listAlertRules(db: Db, scope: AlertScope, experimentSlug?: string) {
  const rules = await db.alertRule.findMany({
    where: { projectId: scope.projectId, ...(experimentSlug ? { experiment: { slug: experimentSlug } } : {}) },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    select: {
      id: true,
      kind: true,
      branch: true,
      alpha: true,
      thresholdPercent: true,
      recentRuns: true,
      windowSize: true,
      webhookUrl: true,
      confirmRuns: true,
      enabled: true,
      createdAt: true,
      metric: { select: { key: true, unit: true } },
      variant: { select: { name: true } },
      experiment: { select: { slug: true, title: true } },
      _count: { select: { alerts: { where: { status: { notIn: ["confirming", "unconfirmed"] } } } } },
    },
  });
  // How often each rule was right: its alerts users marked real or noise, and breaches its confirmation turned away.
  const tallies = await db.alert.groupBy({
    by: ["ruleId", "judgement", "status"],
    where: { ruleId: { in: rules.map((rule) => rule.id) } },
    _count: { _all: true },
  });
  const count = (ruleId: string, match: (row: (typeof tallies)[number]) => boolean) =>
    tallies.filter((row) => row.ruleId === ruleId && match(row)).reduce((sum, row) => sum + row._count._all, 0);
  return rules.map(({ _count, ...rule }) => ({
    ...rule,
    alerts: _count.alerts,
    record: {
      real: count(rule.id, (row) => row.judgement === "real"),
      noise: count(rule.id, (row) => row.judgement === "noise"),
      unconfirmed: count(rule.id, (row) => row.status === "unconfirmed"),
    },
  }));
}

export async function setAlertRuleEnabled(db: Db, scope: AlertScope, ruleId: string, enabled: boolean) {
  const { count } = await db.alertRule.updateMany({ where: { id: ruleId, projectId: scope.projectId }, data: { enabled } });
  if (count === 0) throw new AppError("NOT_FOUND", "No alert rule with that id in this project");
}

/** Deletes the rule and its alerts. */
export async function deleteAlertRule(db: Db, scope: AlertScope, ruleId: string) {
  const { count } = await db.alertRule.deleteMany({ where: { id: ruleId, projectId: scope.projectId } });
  if (count === 0) throw new AppError("NOT_FOUND", "No alert rule with that id in this project");
}

export async function listAlerts(db: Db, scope: AlertScope, options: { status: "active" | "resolved" | "all"; limit: number }) {
  const status =
    options.status === "active"
      ? { in: ["open" as const, "acknowledged" as const, "confirming" as const] }
      : options.status === "resolved"
        ? { equals: "resolved" as const }
        : undefined;
  const where = { projectId: scope.projectId, ...(status ? { status } : {}) };
  const [alerts, open] = await Promise.all([
    db.alert.findMany({
      where,
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      take: options.limit,
      select: {
        id: true,
        status: true,
        branch: true,
        commit: true,
        message: true,
        value: true,
        baselineValue: true,
        changePercent: true,
        pValue: true,
        createdAt: true,
        reviewedAt: true,
        webhookStatus: true,
        webhookError: true,
        webhookAt: true,
        confirmation: true,
        judgement: true,
        judgedAt: true,
        judgedBy: { select: { name: true, email: true } },
        batch: { select: { id: true, createdAt: true, _count: { select: { jobs: { where: { warmup: false } } } } } },
        confirmBatch: { select: { id: true, createdAt: true, _count: { select: { jobs: { where: { warmup: false } } } } } },
        reviewedBy: { select: { name: true, email: true } },
        variant: { select: { name: true } },
        rule: { select: { id: true, kind: true, metric: { select: { key: true, unit: true } }, experiment: { select: { slug: true, title: true } } } },
      },
    }),
    db.alert.count({ where: { projectId: scope.projectId, status: "open" } }),
  ]);
  return { alerts, open };
}

/** Acknowledge (someone is on it) or resolve an alert; a resolved alert stays resolved. */
export async function reviewAlert(db: Db, scope: AlertScope, alertId: string, status: "acknowledged" | "resolved", userId: string) {
  const allowedFrom = status === "acknowledged" ? ["open" as const] : ["open" as const, "acknowledged" as const];
  const { count } = await db.alert.updateMany({
    where: { id: alertId, projectId: scope.projectId, status: { in: allowedFrom } },
    data: { status, reviewedById: userId, reviewedAt: new Date() },
  });
  if (count > 0) return;
  const existing = await db.alert.findFirst({ where: { id: alertId, projectId: scope.projectId }, select: { status: true } });
  if (!existing) throw new AppError("NOT_FOUND", "No alert with that id in this project");
  throw new AppError("CONFLICT", `The alert is already ${existing.status}`);
}

/**
 * A user's finding on an alert: a real regression or noise (changeable; each rule's record is made
 * of these). Only alerts that alarmed can be judged: one waiting for or turned away by its
 * confirmation never reached anyone.
 */
export async function judgeAlert(db: Db, scope: AlertScope, alertId: string, judgement: "real" | "noise", userId: string) {
  const { count } = await db.alert.updateMany({
    where: { id: alertId, projectId: scope.projectId, status: { in: ["open", "acknowledged", "resolved"] } },
    data: { judgement, judgedById: userId, judgedAt: new Date() },
  });
  if (count > 0) return;
  const existing = await db.alert.findFirst({ where: { id: alertId, projectId: scope.projectId }, select: { status: true } });
  if (!existing) throw new AppError("NOT_FOUND", "No alert with that id in this project");
  throw new AppError("CONFLICT", `The alert is ${existing.status === "confirming" ? "still waiting for its confirmation" : "unconfirmed: it never alarmed"}`);
}
