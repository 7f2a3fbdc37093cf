"use client";
// The Run dialog's form: which variants, in which order (interleaved, or shuffled with a seed),
// on which agents; a preview of the jobs it queues; and a plain warning when no online agent
// can take them. Checked with the same Zod schema the server checks with.
import { useMutation, useQuery } from "@tanstack/react-query";
import { TRPCClientError } from "@trpc/client";
import Link from "next/link";
import { useState } from "react";
import { Field, FieldError, invalidProps } from "~/components/forms/field";
import { useHydrated } from "~/components/forms/use-hydrated";
import { plural } from "~/components/format";
import { useTRPC } from "~/components/trpc/react";
import type { FieldIssue } from "~/server/core/errors";
import { newSeed } from "~/server/agents/plan";
import { ZStartBatch, type TJobOrder } from "~/server/schemas/jobs";
import type { BuiltInAgent } from "~/server/workloads/built-in-agents";
import { KAFKA_LOCAL_BROKER_CAPABILITY, TARGETS_CAPABILITY } from "~/server/workloads/job-capabilities";
import { MissingCapabilities } from "./missing-capabilities";
import { agentsThatCanRun, batchDuration, jobCount, orderPreview, parseLabels, unofferedNeeds, variantAgents, type RunnableVariant } from "./run-plan";
import { AgentOptions } from "./agent-options";
import { GroupNeeds } from "./group-needs";
import { RunsForMde } from "./runs-for-mde";

export interface RunTarget {
  projectSlug: string;
  experimentSlug: string;
  variants: RunnableVariant[];
  warmupRuns: number;
  measuredRuns: number;
  /** For each workload of the variants, the agents shipped with Versus that have it (what to start when none is enrolled). */
  builtIn: Record<string, BuiltInAgent[]>;
}

export interface StartedBatch {
  id: string;
  seed: number | null;
  jobs: number;
  eligibleAgents: number;
}

type Where = "any" | "agent" | "labels";

/** “grpc”, “http” with bundled targets and prometheus probes: the workloads, then what else the jobs need. */
function needsText(needs: string[]): string {
  const workloads = needs
    .filter((need) => !need.startsWith("probe:") && need !== TARGETS_CAPABILITY && need !== KAFKA_LOCAL_BROKER_CAPABILITY)
    .map((need) => `“${need}”`);
  const probes = needs.filter((need) => need.startsWith("probe:")).map((need) => need.slice("probe:".length));
  const extras = [
    needs.includes(TARGETS_CAPABILITY) ? "bundled targets" : "",
    needs.includes(KAFKA_LOCAL_BROKER_CAPABILITY) ? "a local Kafka broker" : "",
    probes.length ? `${probes.join(" and ")} probes` : "",
  ].filter(Boolean);
  return `${workloads.join(", ")}${extras.length ? ` with ${extras.join(" and ")}` : ""}`;
}
type Problems = Partial<Record<"variants" | "seed" | "agentId" | "labels", string>>;

export function RunForm({ target, onStarted }: { target: RunTarget; onStarted: (batch: StartedBatch) => void }) {
  const trpc = useTRPC();
  const hydrated = useHydrated();
  const { projectSlug, experimentSlug, warmupRuns, measuredRuns } = target;
  const runnable = target.variants.filter((variant) => variant.workload);
  const [chosen, setChosen] = useState<string[]>(() => runnable.map((variant) => variant.name));
  const [order, setOrder] = useState<TJobOrder>("interleaved");
  const [seedText, setSeedText] = useState("");
  const [where, setWhere] = useState<Where>("any");
  const [agentId, setAgentId] = useState("");
  const [labelsText, setLabelsText] = useState("");
  const [problems, setProblems] = useState<Problems>({});
  const [formError, setFormError] = useState<string>();
  const agents = useQuery({ ...trpc.agent.list.queryOptions({ projectSlug }), refetchInterval: 5000 });
  // Fresh at every opening: the batch just finished is what the next estimate is made of.
  const estimates = useQuery({ ...trpc.job.estimate.queryOptions({ projectSlug, experimentSlug }), staleTime: 0 });
  const start = useMutation(trpc.job.startBatch.mutationOptions());

  const variants = runnable.filter((variant) => chosen.includes(variant.name));
  const needs = [...new Set(variants.flatMap((variant) => variant.needs))];
  const parsedLabels = where === "labels" ? parseLabels(labelsText) : { labels: {} };
  const labels = "labels" in parsedLabels ? parsedLabels.labels : {};
  const pinned = where === "agent" && agentId ? agentId : undefined;
  const capable = agents.data ? agentsThatCanRun(agents.data, needs, labels, pinned) : undefined;
  const onlineCapable = capable?.filter((agent) => agent.online);
  const seedNumber = seedText.trim() === "" ? undefined : Number(seedText);
  const seed = seedNumber !== undefined && Number.isInteger(seedNumber) && seedNumber >= 0 ? seedNumber : undefined;
  const count = jobCount(variants.length, warmupRuns, measuredRuns);
  // A run several agents make together is a job per agent (one shard each); a pool's agents are counted as the start will count them.
  const perRun = variants.map((variant) => variantAgents(variant, agents.data ?? [], labels));
  const jobs = count.total + perRun.reduce((sum, entry) => sum + (Math.max(1, entry.count) - 1) * (warmupRuns + measuredRuns), 0);
  const shortPools = perRun.flatMap((entry, i) => (entry.short ? [`“${variants[i]?.name}” runs on ${entry.short}`] : []));
  const preview = orderPreview(
    variants.map((variant) => variant.name),
    warmupRuns,
    measuredRuns,
    order,
    seed,
  );
  const activeAgents = (agents.data ?? []).filter((agent) => !agent.revokedAt);
  const duration = estimates.data
    ? batchDuration(
        estimates.data,
        variants.map((variant) => variant.name),
        warmupRuns + measuredRuns,
        onlineCapable?.length ?? 1,
      )
    : null;

  if (runnable.length === 0) {
    return (
      <p className="alert" role="alert">
        No variant has a workload yet, so agents have nothing to run. Edit the experiment and choose a workload for each variant.
      </p>
    );
  }

  const onSubmit = async (event: React.FormEvent) => {
    event.preventDefault();
    setFormError(undefined);
    const found: Problems = {};
    if ("error" in parsedLabels) found.labels = parsedLabels.error;
    if (where === "agent" && !agentId) found.agentId = "choose an agent";
    // The server refuses it too; said here so that nothing is sent that cannot start.
    if (agents.data && shortPools.length) found.variants = `too few agents online in the pool: ${shortPools.join("; ")}`;
    const input = {
      projectSlug,
      experimentSlug,
      order,
      seed: order === "random" && seedText.trim() !== "" ? Number(seedText) : undefined,
      agentId: pinned,
      labels,
      variants: chosen,
    };
    const checked = ZStartBatch.safeParse(input);
    for (const issue of checked.error?.issues ?? []) {
      const field = issue.path[0];
      if (field === "variants" || field === "seed" || field === "agentId") found[field] ??= issue.message;
    }
    setProblems(found);
    if (Object.keys(found).length) return;
    try {
      onStarted(await start.mutateAsync(input));
    } catch (error) {
      const fieldIssues = error instanceof TRPCClientError ? ((error.data as { fieldIssues?: FieldIssue[] } | undefined)?.fieldIssues ?? []) : [];
      const fromServer: Problems = {};
      for (const issue of fieldIssues) {
        const field = issue.path[0];
        if (field === "variants" || field === "seed" || field === "agentId" || field === "labels") fromServer[field] ??= issue.message;
      }
      setProblems(fromServer);
      setFormError(error instanceof Error ? error.message : "The batch could not be started");
    }
  };

  const toggle = (name: string, on: boolean) =>
    setChosen((current) => (on ? [...current, name].filter((n, i, all) => all.indexOf(n) === i) : current.filter((n) => n !== name)));

  return (
    <form className="stack" onSubmit={onSubmit} noValidate data-ready={hydrated} aria-label="Run experiment">
      {formError ? (
        <div className="alert" role="alert">
          {formError}
        </div>
      ) : null}

      <fieldset>
        <legend>Variants</legend>
        <div className="choices">
          {target.variants.map((variant) => (
            <label key={variant.name} className="choice">
              <input
                type="checkbox"
                checked={chosen.includes(variant.name)}
                disabled={!variant.workload}
                onChange={(event) => toggle(variant.name, event.target.checked)}
              />
              <span>
                {variant.name}{" "}
                {variant.workload ? (
                  <span className="badge">{variant.workload}</span>
                ) : (
                  <span className="muted small">no workload: edit the experiment to run it</span>
                )}
              </span>
            </label>
          ))}
        </div>
        <FieldError id="run-variants-error" message={problems.variants} />
      </fieldset>

      <fieldset>
        <legend>Order</legend>
        <div className="choices">
          <label className="choice">
            <input type="radio" name="order" value="interleaved" checked={order === "interleaved"} onChange={() => setOrder("interleaved")} />
            <span>
              Interleaved <span className="muted small">— round by round (A B A B …), so every variant meets the same drift</span>
            </span>
          </label>
          <label className="choice">
            <input type="radio" name="order" value="random" checked={order === "random"} onChange={() => setOrder("random")} />
            <span>
              Random <span className="muted small">— shuffled with a seed, reproducible from it</span>
            </span>
          </label>
        </div>
        {order === "random" ? (
          <div className="seed-row">
            <Field id="run-seed" label="Seed" hint="Left empty, one is picked when the batch starts and shown with it" error={problems.seed}>
              <div className="input-with-button">
                <input
                  id="run-seed"
                  type="text"
                  inputMode="numeric"
                  autoComplete="off"
                  value={seedText}
                  onChange={(event) => setSeedText(event.target.value)}
                  {...invalidProps("run-seed", problems.seed)}
                />
                <button type="button" className="button" onClick={() => setSeedText(String(newSeed()))}>
                  New seed
                </button>
              </div>
            </Field>
          </div>
        ) : null}
      </fieldset>

      <fieldset>
        <legend>Agents</legend>
        <div className="choices">
          <label className="choice">
            <input type="radio" name="where" checked={where === "any"} onChange={() => setWhere("any")} />
            <span>Any agent that offers the workload</span>
          </label>
          <label className="choice">
            <input type="radio" name="where" checked={where === "agent"} onChange={() => setWhere("agent")} />
            <span>One agent</span>
          </label>
          {where === "agent" ? (
            <Field id="run-agent" label="Agent" hint="Every job runs on this agent" error={problems.agentId}>
              <select id="run-agent" value={agentId} onChange={(event) => setAgentId(event.target.value)} {...invalidProps("run-agent", problems.agentId)}>
                <option value="">Choose…</option>
                <AgentOptions agents={activeAgents} needs={needs} />
              </select>
            </Field>
          ) : null}
          <label className="choice">
            <input type="radio" name="where" checked={where === "labels"} onChange={() => setWhere("labels")} />
            <span>Agents with labels</span>
          </label>
          {where === "labels" ? (
            <Field
              id="run-labels"
              label="Labels"
              hint="key=value, comma-separated, e.g. pool=lab, os=linux: an agent needs all of them"
              error={problems.labels}
            >
              <input
                id="run-labels"
                type="text"
                autoComplete="off"
                value={labelsText}
                onChange={(event) => setLabelsText(event.target.value)}
                {...invalidProps("run-labels", problems.labels)}
              />
            </Field>
          ) : null}
        </div>
      </fieldset>

      <section className="run-preview" aria-label="What Run queues" data-testid="run-preview">
        <p style={{ margin: 0 }}>
          <strong>{plural(jobs, "job")}</strong>
          {variants.length ? (
            <>
              : {count.warmup ? `${plural(count.warmup, "warm-up")} and ` : ""}
              {plural(count.measured, "measured run")} ({warmupRuns ? `${warmupRuns} + ` : ""}
              {measuredRuns} for each of {plural(variants.length, "variant")})
              {jobs > count.total ? ", a job per agent for the runs several agents make together" : ""}
            </>
          ) : null}
        </p>
        {variants.length && duration ? (
          <p className="small" style={{ margin: 0 }} data-testid="run-duration">
            {duration.text === "unknown" ? (
              <>
                How long it takes: unknown<span className="muted"> — {duration.basis}</span>.
              </>
            ) : (
              <>
                Takes <strong>{duration.text}</strong>
                <span className="muted"> — from {duration.basis}</span>.
              </>
            )}
          </p>
        ) : null}
        <RunsForMde projectSlug={projectSlug} experimentSlug={experimentSlug} measuredRuns={measuredRuns} />
        {variants.length ? (
          <p className="muted small" style={{ margin: 0, overflowWrap: "anywhere" }}>
            {preview
              ? `Order: ${preview.join(" → ")}${count.total > preview.length ? " → …" : ""}`
              : "Order: warm-ups first, then the measured runs shuffled with the seed picked at start."}
          </p>
        ) : null}
        {agents.data ? <GroupNeeds variants={variants} agents={agents.data} labels={labels} /> : null}
        {agents.error ? <p className="error">The agents could not be loaded: {agents.error.message}</p> : null}
        {onlineCapable && variants.length ? (
          onlineCapable.length ? (
            <p className="small" style={{ margin: 0 }} data-testid="run-agents">
              Can run now: {onlineCapable.map((agent) => agent.name).join(", ")}
              {capable && capable.length > onlineCapable.length ? ` (and ${capable.length - onlineCapable.length} offline)` : ""}.
            </p>
          ) : (
            <div className="notice-warn" role="status" data-testid="run-no-agent">
              No online agent {pinned ? "chosen here " : ""}can run {needsText(needs)}
              {Object.keys(labels).length
                ? ` with labels ${Object.entries(labels)
                    .map(([key, value]) => `${key}=${value}`)
                    .join(", ")}`
                : ""}
              {capable?.length ? ` (${capable.map((agent) => agent.name).join(", ")} could, but ${capable.length === 1 ? "is" : "are"} offline)` : ""}. The jobs
              wait in the queue until one is: start an agent enrolled in this project — see <Link href={`/p/${projectSlug}/agents`}>Agents</Link> for how to
              enroll one.
              <MissingCapabilities missing={unofferedNeeds(agents.data ?? [], needs)} builtIn={target.builtIn} />
            </div>
          )
        ) : null}
      </section>

      <div className="form-actions">
        <button type="submit" className="button primary" disabled={!hydrated || start.isPending || variants.length === 0}>
          {start.isPending ? "Starting…" : `Run ${plural(jobs, "job")}`}
        </button>
      </div>
    </form>
  );
}
