"use client";
// The experiment page's "Alert rules and badges": the rules on this experiment's metrics (switch
// off, delete), a form for a new one (members), and the Markdown of each metric's status badge
// for a README.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import Link from "next/link";
import { CopyButton } from "~/components/copy-button";
import { plural } from "~/components/format";
import { useAction } from "~/components/forms/use-action";
import { QueryStatus } from "~/components/query-status";
import { useTRPC } from "~/components/trpc/react";
import type { AppRouter } from "~/server/api/root";
import { alertRuleKindLabels } from "~/server/schemas/alerts";
import { badgeMarkdown } from "~/server/schemas/check";
import { AlertRuleForm, type RuleTarget } from "./alert-rule-form";

type Rule = inferRouterOutputs<AppRouter>["alert"]["rules"]["rules"][number];

function settings(rule: Rule): string {
  const confirm = rule.confirmRuns ? `; confirmed by ${rule.confirmRuns} more runs a variant before alerting` : "";
  if (rule.kind === "percent_bound") return `worse by > ${rule.thresholdPercent}% vs the ${rule.windowSize} commits before${confirm}`;
  if (rule.kind === "mann_whitney") return `last ${rule.recentRuns} runs vs the ${rule.windowSize} before, α = ${rule.alpha}${confirm}`;
  return `new regression change point, α = ${rule.alpha}${confirm}`;
}

/** "right 3 of 4 (marked real 3, noise 1) · 2 turned away by confirmation": the rule's record. */
function recordText(record: Rule["record"]): string {
  const judged = record.real + record.noise;
  const parts = [judged ? `right ${record.real} of ${judged} (marked real ${record.real}, noise ${record.noise})` : "none marked real or noise yet"];
  if (record.unconfirmed) parts.push(`${record.unconfirmed} turned away by confirmation`);
  return parts.join(" · ");
}

export function AlertRulesPanel({ target, canWrite, origin }: { target: RuleTarget; canWrite: boolean; origin: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const rules = useQuery(trpc.alert.rules.queryOptions({ projectSlug: target.projectSlug, experimentSlug: target.experimentSlug }));
  const setEnabled = useMutation(trpc.alert.setRuleEnabled.mutationOptions());
  const remove = useMutation(trpc.alert.deleteRule.mutationOptions());
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.alert.rules.queryKey() });
  const { run, error } = useAction(refresh);
  const shareUrl = `${origin}/s/<token>`;

  return (
    <section className="card" aria-labelledby="alert-rules-heading">
      <h2 id="alert-rules-heading">Alert rules and badges</h2>
      <p className="muted small" style={{ marginTop: 0 }}>
        Rules are checked each time runs with a git commit arrive; a breach opens an alert on the{" "}
        <Link href={`/p/${target.projectSlug}/alerts`}>project&apos;s alerts</Link>, once per commit.
      </p>
      <QueryStatus query={rules} />
      {error ? (
        <p className="error" role="alert">
          {error}
        </p>
      ) : null}
      {rules.data?.rules.length === 0 ? <p className="muted small">No alert rules on this experiment yet.</p> : null}
      {rules.data?.rules.length ? (
        <div className="table-wrap">
          <table aria-label="Alert rules">
            <thead>
              <tr>
                <th>Metric</th>
                <th>Rule</th>
                <th data-narrow="hide">Variant · branch</th>
                <th data-narrow="hide">Webhook</th>
                <th className="num">Alerts</th>
                {canWrite ? <th>Actions</th> : null}
              </tr>
            </thead>
            <tbody>
              {rules.data.rules.map((rule) => (
                <tr key={rule.id} data-testid="alert-rule" data-enabled={rule.enabled}>
                  <td>
                    <code>{rule.metric.key}</code>
                  </td>
                  <td>
                    <strong>{alertRuleKindLabels[rule.kind]}</strong>: {settings(rule)}
                    {rule.enabled ? null : <span className="badge"> off</span>}
                  </td>
                  <td data-narrow="hide" className="small">
                    {rule.variant?.name ?? "every variant"} · {rule.branch ?? "every branch"}
                  </td>
                  <td data-narrow="hide" className="small">
                    {rule.webhookUrl ? <code title={rule.webhookUrl}>{new URL(rule.webhookUrl).host}</code> : <span className="muted">none</span>}
                  </td>
                  <td className="num">
                    {plural(rule.alerts, "alert")}
                    <div className="muted small" data-testid="rule-record">
                      {recordText(rule.record)}
                    </div>
                  </td>
                  {canWrite ? (
                    <td>
                      <div className="actions">
                        <button
                          type="button"
                          className="button small"
                          onClick={() => void run(() => setEnabled.mutateAsync({ projectSlug: target.projectSlug, ruleId: rule.id, enabled: !rule.enabled }))}
                        >
                          {rule.enabled ? "Switch off" : "Switch on"}
                        </button>
                        <button
                          type="button"
                          className="button small danger"
                          onClick={() => {
                            if (window.confirm(`Delete this rule on ${rule.metric.key} and its ${plural(rule.alerts, "alert")}?`))
                              void run(() => remove.mutateAsync({ projectSlug: target.projectSlug, ruleId: rule.id }));
                          }}
                        >
                          Delete
                        </button>
                      </div>
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {canWrite && target.metrics.length > 0 ? <AlertRuleForm target={target} onCreated={refresh} /> : null}

      <h3>Status badges</h3>
      <p className="muted small">
        Each badge shows a metric&apos;s latest commit (median, and the verdict against the commits before it, as <code>npx versus check</code> computes it). A
        README cannot send an API key: the badge opens with the token of a <strong>live</strong> share link of this experiment (Share → Live; the new link then
        lists these snippets ready to copy). Replace <code>&lt;token&gt;</code> with it.
      </p>
      <ul className="stack-tight" style={{ listStyle: "none", padding: 0 }} aria-label="Badge Markdown">
        {target.metrics.map((key) => {
          const markdown = badgeMarkdown(origin, target.experimentSlug, key, "<token>", shareUrl);
          return (
            <li key={key} className="secret-value">
              <pre data-testid="badge-markdown">{markdown}</pre>
              <CopyButton text={markdown} label={`Copy ${key}`} />
            </li>
          );
        })}
      </ul>
    </section>
  );
}
