"use client";
// A new alert rule on one of the experiment's metrics: which kind (change point, % bound,
// Mann-Whitney window) with the settings of that kind only, optionally one variant and one branch,
// and an optional webhook. Validated by the same schema the server uses (ZAlertRuleInput).
import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { useForm, useWatch } from "react-hook-form";
import type { z } from "zod";
import { Field, invalidProps } from "~/components/forms/field";
import { applyServerErrors } from "~/components/forms/server-errors";
import { SubmitButton } from "~/components/forms/submit-button";
import { useHydrated } from "~/components/forms/use-hydrated";
import { useTRPC } from "~/components/trpc/react";
import { alertRuleKindLabels, alertRuleKinds, ZAlertRuleInput, type TAlertRuleFormValues } from "~/server/schemas/alerts";

const kindHints = {
  change_point: "Alert when the history's change-point detection finds a new shift that makes the metric worse.",
  percent_bound: "Alert when the latest commit's median is worse than the median of the commits before it by more than the bound.",
  mann_whitney: "Alert when the last N runs are significantly worse than the M runs before them (Mann-Whitney U).",
} as const;

export interface RuleTarget {
  projectSlug: string;
  experimentSlug: string;
  metrics: readonly string[];
  variants: readonly string[];
  /** Agent-run experiments: the confirmation's runs offered (twice the experiment's); absent, no confirmation is offered. */
  confirmRuns?: number;
}

export function AlertRuleForm({ target, onCreated }: { target: RuleTarget; onCreated: () => Promise<unknown> }) {
  const trpc = useTRPC();
  const hydrated = useHydrated();
  const create = useMutation(trpc.alert.createRule.mutationOptions());
  const [formError, setFormError] = useState<string>();
  const [confirm, setConfirm] = useState(false);
  const form = useForm<TAlertRuleFormValues, unknown, z.output<typeof ZAlertRuleInput>>({
    resolver: zodResolver(ZAlertRuleInput),
    // Fields of another kind leave the values when hidden: a rule carries only its own settings.
    shouldUnregister: true,
    defaultValues: {
      metric: target.metrics[0] ?? "",
      variant: "",
      branch: "main",
      kind: "percent_bound",
      thresholdPercent: 5,
      windowSize: 5,
      alpha: 0.05,
      recentRuns: 5,
      confirmRuns: target.confirmRuns,
      webhookUrl: "",
    },
  });
  const { register, formState } = form;
  const errors = formState.errors;
  const kind = useWatch({ control: form.control, name: "kind" });

  const submit = form.handleSubmit(async (rule) => {
    setFormError(undefined);
    try {
      await create.mutateAsync({ projectSlug: target.projectSlug, experimentSlug: target.experimentSlug, rule });
      await onCreated();
    } catch (error) {
      setFormError(applyServerErrors(error, form.setError, ["rule"]));
    }
  });

  const number = (name: "alpha" | "thresholdPercent" | "recentRuns" | "windowSize" | "confirmRuns", label: string, hint: string, step: string) => (
    <Field id={`rule-${name}`} label={label} hint={hint} error={errors[name]?.message}>
      <input
        id={`rule-${name}`}
        type="number"
        step={step}
        {...register(name, { valueAsNumber: true })}
        {...invalidProps(`rule-${name}`, errors[name]?.message)}
      />
    </Field>
  );

  return (
    <form onSubmit={submit} noValidate data-ready={hydrated} aria-label="New alert rule" className="stack-tight">
      <h3 style={{ margin: 0 }}>New rule</h3>
      <div className="row">
        <Field id="rule-metric" label="Metric" error={errors.metric?.message}>
          <select id="rule-metric" {...register("metric")}>
            {target.metrics.map((key) => (
              <option key={key} value={key}>
                {key}
              </option>
            ))}
          </select>
        </Field>
        <Field id="rule-variant" label="Variant" error={errors.variant?.message}>
          <select id="rule-variant" {...register("variant")}>
            <option value="">every variant</option>
            {target.variants.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </Field>
        <Field id="rule-branch" label="Branch" hint="Empty: runs of every branch" error={errors.branch?.message}>
          <input id="rule-branch" type="text" {...register("branch")} {...invalidProps("rule-branch", errors.branch?.message)} />
        </Field>
        <Field id="rule-kind" label="Kind" error={errors.kind?.message}>
          <select id="rule-kind" {...register("kind")}>
            {alertRuleKinds.map((value) => (
              <option key={value} value={value}>
                {alertRuleKindLabels[value]}
              </option>
            ))}
          </select>
        </Field>
      </div>
      <p className="muted small" style={{ margin: 0 }}>
        {kindHints[kind]}
      </p>
      <div className="row">
        {kind === "percent_bound" ? (
          <>
            {number("thresholdPercent", "Bound (%)", "How much worse the latest commit may be", "any")}
            {number("windowSize", "Earlier commits", "The baseline: this many commits before it", "1")}
          </>
        ) : null}
        {kind === "mann_whitney" ? (
          <>
            {number("recentRuns", "Recent runs (N)", "The runs tested", "1")}
            {number("windowSize", "Earlier runs (M)", "The baseline: this many runs before them", "1")}
            {number("alpha", "Significance level α", "e.g. 0.05", "any")}
          </>
        ) : null}
        {kind === "change_point" ? number("alpha", "Significance level α", "A change point's p must be at most this", "any") : null}
      </div>
      {target.confirmRuns ? (
        <div className="row">
          {/* The explanation describes the box rather than naming it: its name stays "Confirm before alerting". */}
          <div className="choice">
            <input
              id="rule-confirm"
              type="checkbox"
              checked={confirm}
              onChange={(event) => setConfirm(event.target.checked)}
              aria-describedby="rule-confirm-hint"
            />
            <span>
              <label htmlFor="rule-confirm">Confirm before alerting</label>{" "}
              <span id="rule-confirm-hint" className="muted small">
                — a breach on runs the agents ran first runs a confirmation batch (the same definition, agent and commit, interleaved) and alerts only when it
                is worse too
              </span>
            </span>
          </div>
          {confirm ? number("confirmRuns", "Confirmation runs", "Measured runs per variant of the confirmation batch", "1") : null}
        </div>
      ) : null}
      <div className="row">
        <Field
          id="rule-webhook"
          label="Webhook URL (optional)"
          hint="Each new alert is POSTed here as JSON with a Slack-compatible “text”"
          error={errors.webhookUrl?.message}
        >
          <input
            id="rule-webhook"
            type="url"
            placeholder="https://hooks.slack.com/services/…"
            {...register("webhookUrl")}
            {...invalidProps("rule-webhook", errors.webhookUrl?.message)}
          />
        </Field>
      </div>
      {formError ? (
        <p className="error" role="alert">
          {formError}
        </p>
      ) : null}
      <div className="actions">
        <SubmitButton hydrated={hydrated} submitting={formState.isSubmitting}>
          Add rule
        </SubmitButton>
      </div>
    </form>
  );
}
