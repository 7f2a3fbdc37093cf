// Alert rules and alerts: viewers read them; members (who also make experiments and share links)
// create, switch off and delete rules, and acknowledge or resolve alerts.
import { ZAlertRuleRef, ZCreateAlertRule, ZJudgeAlert, ZListAlertRules, ZListAlerts, ZReviewAlert, ZSetAlertRuleEnabled } from "../../schemas/alerts";
import { createAlertRule, deleteAlertRule, judgeAlert, listAlertRules, listAlerts, reviewAlert, setAlertRuleEnabled } from "../../regressions/alerts";
import { createTRPCRouter, projectProcedure } from "../trpc";

export const alertRouter = createTRPCRouter({
  rules: projectProcedure("viewer")
    .input(ZListAlertRules)
    .query(async ({ ctx, input }) => ({ rules: await listAlertRules(ctx.db, ctx.access, input.experimentSlug), role: ctx.access.role })),
  createRule: projectProcedure("member")
    .input(ZCreateAlertRule)
    .mutation(({ ctx, input }) => createAlertRule(ctx.db, ctx.access, input.experimentSlug, input.rule, ctx.user.id)),
  setRuleEnabled: projectProcedure("member")
    .input(ZSetAlertRuleEnabled)
    .mutation(({ ctx, input }) => setAlertRuleEnabled(ctx.db, ctx.access, input.ruleId, input.enabled)),
  deleteRule: projectProcedure("member")
    .input(ZAlertRuleRef)
    .mutation(({ ctx, input }) => deleteAlertRule(ctx.db, ctx.access, input.ruleId)),
  list: projectProcedure("viewer")
    .input(ZListAlerts)
    .query(async ({ ctx, input }) => ({ ...(await listAlerts(ctx.db, ctx.access, input)), role: ctx.access.role })),
  review: projectProcedure("member")
    .input(ZReviewAlert)
    .mutation(({ ctx, input }) => reviewAlert(ctx.db, ctx.access, input.alertId, input.status, ctx.user.id)),
  /** Real or noise: what the member found the alert to be. */
  judge: projectProcedure("member")
    .input(ZJudgeAlert)
    .mutation(({ ctx, input }) => judgeAlert(ctx.db, ctx.access, input.alertId, input.judgement, ctx.user.id)),
});
