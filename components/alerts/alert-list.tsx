"use client";
// A project's alerts: what broke which rule at which commit, whether its webhook was delivered,
// with Acknowledge and Resolve for members, and Real / Noise: what they found it to be (each rule's
// record of being right). An alert a confirmation batch checked shows both batches and what the
// confirmation found. The project page shows the active ones; the alerts page can show all.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import Link from "next/link";
import { formatDateTime } from "~/components/format";
import { useAction } from "~/components/forms/use-action";
import { QueryStatus } from "~/components/query-status";
import { useTRPC } from "~/components/trpc/react";
import type { AppRouter } from "~/server/api/root";
import { alertRuleKindLabels } from "~/server/schemas/alerts";

type Alert = inferRouterOutputs<AppRouter>["alert"]["list"]["alerts"][number];

const statusBadge = {
  open: "badge warn",
  acknowledged: "badge accent",
  resolved: "badge good",
  confirming: "badge",
  unconfirmed: "badge",
} as const;

const judgements = [
  { value: "real", label: "Real", title: "A real regression: counts as this rule being right" },
  { value: "noise", label: "Noise", title: "Noise, a false alarm: counts as this rule being wrong" },
] as const;

export function AlertList({
  projectSlug,
  status = "active",
  limit = 50,
  compact = false,
}: {
  projectSlug: string;
  status?: "active" | "resolved" | "all";
  limit?: number;
  compact?: boolean;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const input = { projectSlug, status, limit };
  const alerts = useQuery(trpc.alert.list.queryOptions(input));
  const review = useMutation(trpc.alert.review.mutationOptions());
  const judge = useMutation(trpc.alert.judge.mutationOptions());
  const { run, error } = useAction(() => queryClient.invalidateQueries({ queryKey: trpc.alert.list.queryKey() }));
  const canReview = alerts.data?.role === "owner" || alerts.data?.role === "member";

  return (
    <>
      <QueryStatus query={alerts} />
      {error ? (
        <p className="error" role="alert">
          {error}
        </p>
      ) : null}
      {alerts.data && alerts.data.alerts.length === 0 ? (
        <p className="muted small">{status === "resolved" ? "No resolved alerts." : "No open alerts: no rule was breached."}</p>
      ) : null}
      {alerts.data?.alerts.length ? (
        <div className="table-wrap">
          <table aria-label="Alerts">
            <thead>
              <tr>
                <th>Status</th>
                <th>What</th>
                {compact ? null : <th data-narrow="hide">Rule</th>}
                <th data-narrow="hide">When</th>
                {compact ? null : <th data-narrow="hide">Webhook</th>}
                {canReview ? <th>Actions</th> : null}
              </tr>
            </thead>
            <tbody>
              {alerts.data.alerts.map((alert) => (
                <AlertRow
                  key={alert.id}
                  alert={alert}
                  projectSlug={projectSlug}
                  compact={compact}
                  review={canReview ? (status) => run(() => review.mutateAsync({ projectSlug, alertId: alert.id, status })) : undefined}
                  judge={canReview ? (judgement) => run(() => judge.mutateAsync({ projectSlug, alertId: alert.id, judgement })) : undefined}
                />
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </>
  );
}

function AlertRow({
  alert,
  projectSlug,
  compact,
  review,
  judge,
}: {
  alert: Alert;
  projectSlug: string;
  compact: boolean;
  review?: (status: "acknowledged" | "resolved") => Promise<void>;
  judge?: (judgement: "real" | "noise") => Promise<void>;
}) {
  const experiment = alert.rule.experiment;
  const batchLink = (batch: NonNullable<Alert["batch"]>, what: string) => (
    <Link href={`/p/${projectSlug}/e/${experiment.slug}#batch-${batch.id}`}>
      {what} of {formatDateTime(batch.createdAt)} ({batch._count.jobs} runs)
    </Link>
  );
  // Judged only once it alarmed: a breach still confirming or turned away never reached anyone.
  const judgeable = alert.status === "open" || alert.status === "acknowledged" || alert.status === "resolved";
  return (
    <tr data-testid="alert-row" data-status={alert.status}>
      <td>
        <span className={statusBadge[alert.status]}>{alert.status}</span>
      </td>
      <td>
        <Link href={`/p/${projectSlug}/e/${experiment.slug}`}>{experiment.title}</Link>: {alert.message}
        {alert.confirmation ? (
          <div className="small" data-testid="alert-confirmation">
            {alert.confirmation}
          </div>
        ) : alert.status === "confirming" ? (
          <div className="small muted">Waiting for the confirmation batch before alerting.</div>
        ) : null}
        {alert.batch || alert.confirmBatch ? (
          <div className="small muted" data-testid="alert-batches">
            {alert.batch ? batchLink(alert.batch, "flagged by the batch") : null}
            {alert.batch && alert.confirmBatch ? " · " : null}
            {alert.confirmBatch ? batchLink(alert.confirmBatch, "confirmation batch") : null}
          </div>
        ) : null}
        {alert.judgement ? (
          <div className="small" data-testid="alert-judgement">
            Marked <strong>{alert.judgement}</strong>
            {alert.judgedBy ? ` by ${alert.judgedBy.name || alert.judgedBy.email}` : ""}
            {alert.judgedAt ? ` ${formatDateTime(alert.judgedAt)}` : ""}
          </div>
        ) : null}
      </td>
      {compact ? null : (
        <td data-narrow="hide" className="small">
          {alertRuleKindLabels[alert.rule.kind]} on <code>{alert.rule.metric.key}</code>
        </td>
      )}
      <td data-narrow="hide" className="small">
        {formatDateTime(alert.createdAt)}
        {alert.reviewedAt ? (
          <span className="muted">
            {" "}
            · {alert.status} {formatDateTime(alert.reviewedAt)}
            {alert.reviewedBy ? ` by ${alert.reviewedBy.name || alert.reviewedBy.email}` : ""}
          </span>
        ) : null}
      </td>
      {compact ? null : (
        <td data-narrow="hide" className="small">
          {alert.webhookStatus === null ? (
            <span className="muted">none</span>
          ) : alert.webhookStatus === "sent" ? (
            <span className="badge good">sent</span>
          ) : (
            <span className="badge warn" title={alert.webhookError ?? ""}>
              failed: {alert.webhookError}
            </span>
          )}
        </td>
      )}
      {review ? (
        <td>
          <div className="actions">
            {alert.status === "open" ? (
              <button type="button" className="button small" onClick={() => void review("acknowledged")}>
                Acknowledge
              </button>
            ) : null}
            {alert.status === "open" || alert.status === "acknowledged" ? (
              <button type="button" className="button small" onClick={() => void review("resolved")}>
                Resolve
              </button>
            ) : null}
            {judge && judgeable
              ? judgements.map(({ value, label, title }) => (
                  <button
                    key={value}
                    type="button"
                    className={alert.judgement === value ? "button small primary" : "button small"}
                    aria-pressed={alert.judgement === value}
                    onClick={() => void judge(value)}
                    title={title}
                  >
                    {label}
                  </button>
                ))
              : null}
          </div>
        </td>
      ) : null}
    </tr>
  );
}
