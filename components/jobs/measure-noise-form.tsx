"use client";
// "Measure noise": starts an A/A batch (the baseline against itself, interleaved) on any capable
// agent or on one chosen agent, through the same procedure and Zod schema as Run and as
// POST /api/v1/experiments/{slugOrId}/batches with "noise": true.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { TRPCClientError } from "@trpc/client";
import { useState } from "react";
import { DialogButton } from "~/components/dialog-button";
import { Field, invalidProps } from "~/components/forms/field";
import { useHydrated } from "~/components/forms/use-hydrated";
import { plural } from "~/components/format";
import { useTRPC } from "~/components/trpc/react";
import type { FieldIssue } from "~/server/core/errors";
import { ZStartBatch } from "~/server/schemas/jobs";
import { AgentOptions } from "./agent-options";

export interface NoiseTarget {
  projectSlug: string;
  experimentSlug: string;
  baseline: string;
  /** What the baseline's jobs need of an agent (its workload and probe kinds). */
  needs: string[];
  warmupRuns: number;
  measuredRuns: number;
}

type Problems = Partial<Record<"runs" | "agentId", string>>;

export function MeasureNoiseForm({ target, onStarted }: { target: NoiseTarget; onStarted: () => void }) {
  const trpc = useTRPC();
  const hydrated = useHydrated();
  const queryClient = useQueryClient();
  const { projectSlug, experimentSlug, warmupRuns, measuredRuns } = target;
  const [runsText, setRunsText] = useState(String(measuredRuns));
  const [agentId, setAgentId] = useState("");
  const [problems, setProblems] = useState<Problems>({});
  const [formError, setFormError] = useState<string>();
  const agents = useQuery(trpc.agent.list.queryOptions({ projectSlug }));
  const start = useMutation(trpc.job.startBatch.mutationOptions());
  const runs = Number(runsText);
  const jobs = Number.isInteger(runs) && runs > 0 ? warmupRuns + 2 * runs : null;

  const onSubmit = async (event: React.FormEvent) => {
    event.preventDefault();
    setFormError(undefined);
    const input = { projectSlug, experimentSlug, noise: true, runs: runsText.trim() === "" ? undefined : Number(runsText), agentId: agentId || undefined };
    const checked = ZStartBatch.safeParse(input);
    const found: Problems = {};
    for (const issue of checked.error?.issues ?? []) {
      const field = issue.path[0];
      if (field === "runs" || field === "agentId") found[field] ??= issue.message;
    }
    setProblems(found);
    if (Object.keys(found).length) return;
    try {
      await start.mutateAsync(input);
      void queryClient.invalidateQueries({ queryKey: trpc.job.batches.queryKey({ projectSlug, experimentSlug }) });
      onStarted();
    } catch (error) {
      const issues = error instanceof TRPCClientError ? ((error.data as { fieldIssues?: FieldIssue[] } | undefined)?.fieldIssues ?? []) : [];
      const fromServer: Problems = {};
      for (const issue of issues) if (issue.path[0] === "runs" || issue.path[0] === "agentId") fromServer[issue.path[0]] ??= issue.message;
      setProblems(fromServer);
      setFormError(error instanceof Error ? error.message : "The noise batch could not be started");
    }
  };

  return (
    <form className="stack" onSubmit={onSubmit} noValidate data-ready={hydrated} aria-label="Measure noise">
      <p className="muted small" style={{ margin: 0 }}>
        Runs the baseline <strong>{target.baseline}</strong> against itself, interleaved: two sides of the same runs, so every difference between them is the
        agent&apos;s noise. Its run-to-run spread gives, per metric and agent, the smallest change a comparison can see there — shown beside every verdict of
        runs on that agent.
      </p>
      {formError ? (
        <div className="alert" role="alert">
          {formError}
        </div>
      ) : null}
      <Field id="noise-runs" label="Runs a side" hint="Each side gets this many measured runs (the experiment's own count by default)" error={problems.runs}>
        <input
          id="noise-runs"
          type="text"
          inputMode="numeric"
          autoComplete="off"
          value={runsText}
          onChange={(event) => setRunsText(event.target.value)}
          {...invalidProps("noise-runs", problems.runs)}
        />
      </Field>
      <Field
        id="noise-agent"
        label="Agent"
        hint="The floor is measured per agent: choose the one the verdicts run on, or let any capable agent take the jobs"
        error={problems.agentId}
      >
        <select id="noise-agent" value={agentId} onChange={(event) => setAgentId(event.target.value)} {...invalidProps("noise-agent", problems.agentId)}>
          <option value="">Any agent that offers the workload</option>
          <AgentOptions agents={(agents.data ?? []).filter((agent) => !agent.revokedAt)} needs={target.needs} />
        </select>
      </Field>
      <div className="form-actions">
        <button type="submit" className="button primary" disabled={!hydrated || start.isPending}>
          {start.isPending ? "Starting…" : jobs === null ? "Measure noise" : `Measure noise: ${plural(jobs, "job")}`}
        </button>
      </div>
    </form>
  );
}

/** The button and its dialog (the form mounts when it opens, so each opening starts afresh). */
export function MeasureNoiseButton({ label, target }: { label: string; target: NoiseTarget }) {
  return (
    <DialogButton label={label} title="Measure noise" id="noise-dialog" buttonClassName="button small">
      {(close) => <MeasureNoiseForm target={target} onStarted={close} />}
    </DialogButton>
  );
}
