// A new alert's announcement: POSTed once to its rule's webhook (when it has one) as JSON with a
// Slack-compatible "text", and the delivery recorded on the alert. Called when an alert opens —
// at once, or after its confirmation batch agreed (confirmation.ts).
import type { Db, Prisma } from "../db/client";
import { defaultPublicOrigin } from "../http/public-origin";
import type { TAlertWebhookBody } from "../schemas/alerts";
import { postWebhook } from "./webhook";

/** What evaluating and announcing a rule read of it. */
export const ruleToAnnounce = {
  metric: { select: { id: true, key: true, label: true, unit: true, direction: true, aggregation: true } },
  variant: { select: { id: true, name: true } },
  experiment: {
    select: { slug: true, title: true, project: { select: { slug: true } }, variants: { select: { id: true, name: true }, orderBy: { position: "asc" } } },
  },
} satisfies Prisma.AlertRuleInclude;
export type RuleToAnnounce = Prisma.AlertRuleGetPayload<{ include: typeof ruleToAnnounce }>;

type AlertRow = Prisma.AlertGetPayload<object>;

export async function announceAlert(db: Db, rule: RuleToAnnounce, variantName: string, alert: AlertRow): Promise<void> {
  if (!rule.webhookUrl) return;
  const message = alert.confirmation ? `${alert.message} — ${alert.confirmation}` : alert.message;
  const body: TAlertWebhookBody = {
    text: `:rotating_light: Versus alert — ${rule.experiment.title}: ${message}`,
    alert: {
      id: alert.id,
      url: `${defaultPublicOrigin()}/p/${rule.experiment.project.slug}/alerts`,
      project: rule.experiment.project.slug,
      experiment: rule.experiment.slug,
      metric: rule.metric.key,
      unit: rule.metric.unit,
      direction: rule.metric.direction,
      variant: variantName,
      branch: alert.branch,
      commit: alert.commit,
      rule: { id: rule.id, kind: rule.kind },
      message,
      value: alert.value,
      baselineValue: alert.baselineValue,
      changePercent: alert.changePercent,
      pValue: alert.pValue,
      createdAt: alert.createdAt.toISOString(),
    },
  };
  const delivery = await postWebhook(rule.webhookUrl, body);
  await db.alert.update({ where: { id: alert.id }, data: { webhookStatus: delivery.status, webhookError: delivery.error, webhookAt: new Date() } });
}
