// Who may call each tRPC procedure: the access rules of F5 written down once. The matrix test
// (procedure-access.int.test.ts) checks every procedure of the router against this table, and
// fails when a procedure is missing from it, so a new procedure cannot ship without a rule.
//   "public"     anyone, signed in or not (the setup link's own secret authorises it)
//   "signed-in"  any signed-in user (their own projects only)
//   viewer | member | owner   the least role in the project named by input.projectSlug
import type { MemberRole } from "~/server/access/project-access";

export type Access = "public" | "signed-in" | MemberRole;

export const procedureAccess: Record<string, Access> = {
  "setup.status": "public",
  "setup.linkState": "public",
  "setup.complete": "public",

  "account.updateName": "signed-in",
  "account.changeEmail": "signed-in",

  "project.list": "signed-in",
  "project.create": "signed-in",
  "project.bySlug": "viewer",
  "project.update": "owner",
  "project.delete": "owner",

  "experiment.list": "viewer",
  "experiment.get": "viewer",
  "experiment.runs": "viewer",
  "experiment.metricResults": "viewer",
  "experiment.runShards": "viewer",
  "experiment.comparison": "viewer",
  "experiment.results": "viewer",
  "experiment.create": "member",
  "experiment.update": "member",
  "experiment.delete": "member",

  "history.get": "viewer",
  "history.overview": "viewer",
  "history.openChangePoints": "viewer",
  "history.review": "member",
  "history.setRepositoryUrl": "owner",

  "report.markdown": "viewer",
  "report.runsCsv": "viewer",
  "report.summaryCsv": "viewer",
  "report.runSetOptions": "viewer",
  "report.crossCompare": "viewer",

  "apiKey.list": "member",
  "apiKey.create": "member",
  "apiKey.revoke": "member",

  "enrollmentToken.list": "member",
  "enrollmentToken.create": "member",
  "enrollmentToken.revoke": "member",

  "agent.list": "viewer",
  "agent.workloads": "viewer",
  "agent.revoke": "member",
  "agent.requestStop": "member",
  "agent.resume": "member",

  "job.batches": "viewer",
  "job.estimate": "viewer",
  "job.noiseFloor": "viewer",
  "job.get": "viewer",
  "job.startBatch": "member",
  "job.cancel": "member",
  "job.cancelBatch": "member",
  "job.retryFailed": "member",

  "member.list": "viewer",
  "member.leave": "viewer",
  "member.invitations": "owner",
  "member.invite": "owner",
  "member.changeRole": "owner",
  "member.remove": "owner",
  "member.revokeInvitation": "owner",

  // The invitation link's secret authorises these; the person may have no account yet.
  "invitation.view": "public",
  "invitation.accept": "public",

  "share.create": "member",
  "share.list": "member",
  "share.revoke": "member",
  "share.setExpiry": "member",
  // The share page's own call: the token in the input is what authorises it.
  "share.view": "public",

  "alert.rules": "viewer",
  "alert.list": "viewer",
  "alert.createRule": "member",
  "alert.setRuleEnabled": "member",
  "alert.deleteRule": "member",
  "alert.review": "member",
  "alert.judge": "member",
};
