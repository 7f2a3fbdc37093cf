// Alert rules on a metric's history and the alerts they open: the tRPC procedures, the rule form
// and the webhook body share these shapes.
import { z } from "zod";
import { minReplicates } from "../stats/verdict";
import { ZSlug } from "./common";
import { ZExperimentRef } from "./experiment";
import { ZProjectRef } from "./project";

export const alertRuleKinds = ["change_point", "percent_bound", "mann_whitney"] as const;
export const ZAlertRuleKind = z.enum(alertRuleKinds);
export type TAlertRuleKind = z.output<typeof ZAlertRuleKind>;

export const alertRuleKindLabels: Record<TAlertRuleKind, string> = {
  change_point: "Change point",
  percent_bound: "% bound",
  mann_whitney: "Mann-Whitney window",
};

export const alertStatuses = ["open", "acknowledged", "resolved", "confirming", "unconfirmed"] as const;

/** What a user found an alert to be once they looked: each rule's record of being right. */
export const alertJudgements = ["real", "noise"] as const;
export const ZAlertJudgement = z.enum(alertJudgements, { error: `the judgement must be one of ${alertJudgements.join(", ")}` });
export const ZAlertStatus = z.enum(alertStatuses);

/** Numbers from a form's number box arrive as NaN when it is empty: say so plainly. */
const numberField = (field: string) => z.number({ error: `${field} must be a number` });

/**
 * One rule. variant "" and branch "" mean every variant and every branch. Only the fields of the
 * rule's kind are used: change_point alpha; percent_bound thresholdPercent and windowSize
 * (commits); mann_whitney recentRuns, windowSize (runs) and alpha.
 */
export const ZAlertRuleInput = z
  .object({
    metric: z.string().trim().min(1, "choose a metric").max(100, "a metric key is at most 100 characters"),
    variant: z.string().trim().max(100, "a variant name is at most 100 characters").default(""),
    branch: z.string().trim().max(255, "a branch name is at most 255 characters").default(""),
    kind: ZAlertRuleKind,
    alpha: numberField("the significance level").gt(0, "the significance level must be above 0").lt(1, "the significance level must be below 1").optional(),
    thresholdPercent: numberField("the bound").gt(0, "the bound must be above 0%").max(10_000, "the bound must be at most 10000%").optional(),
    recentRuns: numberField("the number of recent runs")
      .int("the number of recent runs must be a whole number")
      .min(1)
      .max(1000, "at most 1000 recent runs")
      .optional(),
    windowSize: numberField("the window")
      .int("the window must be a whole number")
      .min(1, "the window must be at least 1")
      .max(10_000, "the window must be at most 10000")
      .optional(),
    confirmRuns: numberField("the confirmation's runs")
      .int("the confirmation's runs must be a whole number")
      .min(2, "a confirmation needs at least 2 runs per variant")
      .max(1000, "a confirmation has at most 1000 runs per variant")
      .optional()
      .meta({
        description:
          "agent-run experiments: a breach first runs a confirmation batch of this many measured runs per variant (the flagging batch's definition, interleaved) and alerts only when it agrees; left out: alert at once",
      }),
    webhookUrl: z
      .union([
        z.literal(""),
        z.url({ protocol: /^https?$/, error: "the webhook must be an http:// or https:// URL" }).max(2000, "the webhook URL is at most 2000 characters"),
      ])
      .default(""),
  })
  .superRefine((rule, ctx) => {
    const need = (field: "alpha" | "thresholdPercent" | "recentRuns" | "windowSize", message: string) => {
      if (rule[field] === undefined) ctx.addIssue({ code: "custom", path: [field], message });
    };
    if (rule.kind === "change_point") need("alpha", "give the significance level (e.g. 0.05)");
    if (rule.kind === "percent_bound") {
      need("thresholdPercent", "give how much worse, in %, the latest commit may be");
      need("windowSize", "give how many earlier commits make the baseline");
    }
    if (rule.kind === "mann_whitney") {
      need("alpha", "give the significance level (e.g. 0.05)");
      need("recentRuns", "give how many recent runs are tested");
      need("windowSize", "give how many runs before them make the baseline");
      // The U test cannot reach α with fewer runs on a side: such a rule could never fire.
      if (rule.alpha !== undefined && rule.alpha > 0 && rule.alpha < 1) {
        const least = minReplicates(rule.alpha);
        for (const field of ["recentRuns", "windowSize"] as const) {
          const value = rule[field];
          if (value !== undefined && value < least)
            ctx.addIssue({ code: "custom", path: [field], message: `needs ≥ ${least} runs for the test to reach α = ${rule.alpha}` });
        }
      }
    }
  });
export type TAlertRuleInput = z.output<typeof ZAlertRuleInput>;
export type TAlertRuleFormValues = z.input<typeof ZAlertRuleInput>;

export const ZCreateAlertRule = ZExperimentRef.extend({ rule: ZAlertRuleInput });
export const ZAlertRuleRef = z.object({ projectSlug: ZSlug, ruleId: z.string().min(1).max(64) });
export const ZSetAlertRuleEnabled = ZAlertRuleRef.extend({ enabled: z.boolean() });
export const ZListAlertRules = ZProjectRef.extend({ experimentSlug: ZSlug.optional() });

export const ZListAlerts = ZProjectRef.extend({
  /** open and acknowledged when absent: what still needs someone. */
  status: z.enum(["active", "resolved", "all"]).default("active"),
  limit: z.number().int().min(1).max(200).default(50),
});
export const ZAlertRef = z.object({ projectSlug: ZSlug, alertId: z.string().min(1).max(64) });
export const ZReviewAlert = ZAlertRef.extend({ status: z.enum(["acknowledged", "resolved"]) });
export const ZJudgeAlert = ZAlertRef.extend({ judgement: ZAlertJudgement });

/** What a webhook receives for one new alert: the alert's fields, and `text` for Slack. */
export const ZAlertWebhookBody = z.object({
  text: z.string(),
  alert: z.object({
    id: z.string(),
    url: z.string(),
    project: z.string(),
    experiment: z.string(),
    metric: z.string(),
    unit: z.string(),
    direction: z.enum(["lower_is_better", "higher_is_better"]),
    variant: z.string(),
    branch: z.string(),
    commit: z.string(),
    rule: z.object({ id: z.string(), kind: ZAlertRuleKind }),
    message: z.string(),
    value: z.number().nullable(),
    baselineValue: z.number().nullable(),
    changePercent: z.number().nullable(),
    pValue: z.number().nullable(),
    createdAt: z.string(),
  }),
});
export type TAlertWebhookBody = z.output<typeof ZAlertWebhookBody>;
