"use client";
// How many agents make each of a variant's runs together (a load test split over several agents,
// docs/agents.md "One load test on several agents"): a fixed number, or every online agent of a
// pool chosen by labels, at least some number, counted when Run is pressed; and what a run does
// when one of them is lost. Offered for workloads whose settings schema marks load settings to
// share (x-versus-split).
import { useState } from "react";
import { Field, invalidProps } from "~/components/forms/field";
import { parseLabels } from "~/components/jobs/run-plan";
import { hasLabels } from "~/server/agents/agent-pools";
import { labelText } from "~/server/agents/batch-waits";
import type { TLabels } from "~/server/schemas/labels";
import {
  agentCount,
  agentPool,
  MAX_GROUP_AGENTS,
  shardLossModes,
  splitsOverAgents,
  type TShardLoss,
  type TWorkloadAgentsInput,
} from "~/server/schemas/workload";
import { SHARDS_CAPABILITY } from "~/server/workloads/job-capabilities";

interface Props {
  /** The form field of the variant's config (e.g. "variants.0.config"): the inputs' ids start with it. */
  name: string;
  variant: string;
  agents: TWorkloadAgentsInput | undefined;
  onShardLoss: TShardLoss | undefined;
  /** The workload's load settings, which the agents share. */
  splitNames: string[];
  /** The agents that offer the workload and `shards`, with their labels (what a pool is chosen by). */
  shardAgents: { name: string; online: boolean; labels: TLabels }[];
  errors: { agents?: string; onShardLoss?: string };
  onChange: (next: { agents: TWorkloadAgentsInput | undefined; onShardLoss: TShardLoss | undefined }) => void;
}

const lossLabels: Record<TShardLoss, string> = {
  fail: "Fail the run (run it again while attempts remain)",
  partial: "Store the other agents' run, marked partial",
};

/** The minimum a pool starts with when it is chosen: a pool is for splitting, so two. */
const FIRST_POOL_MIN = 2;

const listed = (agents: { name: string }[]) => agents.map((agent) => agent.name).join(", ");

/** A whole number of agents (1–MAX_GROUP_AGENTS) that keeps what is typed (an empty box, a half-typed number) until it loses focus. */
function AgentNumber({ id, value, error, onChange }: { id: string; value: number; error?: string; onChange: (typed: string) => void }) {
  const [text, setText] = useState<string | null>(null);
  return (
    <input
      id={id}
      type="number"
      inputMode="numeric"
      min={1}
      max={MAX_GROUP_AGENTS}
      step={1}
      value={text ?? String(value)}
      onChange={(event) => {
        setText(event.target.value);
        onChange(event.target.value);
      }}
      onBlur={() => setText(null)}
      {...invalidProps(id, error)}
    />
  );
}

export function AgentsField({ name, variant, agents, onShardLoss, splitNames, shardAgents, errors, onChange }: Props) {
  // What is typed, so half-typed labels stay as typed.
  const [labelsText, setLabelsText] = useState<string | null>(null);
  const [labelsProblem, setLabelsProblem] = useState<string | null>(null);
  const modeId = `${name}.agentsMode`;
  const agentsId = `${name}.agents`;
  const labelsId = `${name}.agents.labels`;
  const minId = `${name}.agents.min`;
  const lossId = `${name}.onShardLoss`;
  const online = shardAgents.filter((agent) => agent.online);
  const pool = agentPool(agents);
  const count = agentCount(agents, 0);
  const keepLoss = (next: TWorkloadAgentsInput | undefined) => (splitsOverAgents(next) ? onShardLoss : undefined);
  const change = (next: TWorkloadAgentsInput | undefined) => onChange({ agents: next, onShardLoss: keepLoss(next) });

  const edit = (typed: string) => {
    const value = Number(typed);
    // 1 (or nothing) is one agent: the config leaves agents out. Anything else goes to the schema, which says what is wrong.
    change(typed.trim() === "" || value === 1 ? undefined : value);
  };
  const editLabels = (typed: string) => {
    setLabelsText(typed);
    const parsed = parseLabels(typed);
    setLabelsProblem("error" in parsed ? parsed.error : null);
    // Labels that do not parse are sent as none: the schema then refuses the config until they do.
    change({ labels: "labels" in parsed ? parsed.labels : {}, min: pool?.min });
  };
  const editMin = (typed: string) => {
    change({ labels: pool?.labels ?? {}, min: typed.trim() === "" ? undefined : Number(typed) });
  };
  const choose = (mode: string) => {
    setLabelsText(null);
    setLabelsProblem(null);
    change(mode === "pool" ? { labels: {}, min: FIRST_POOL_MIN } : 2);
  };

  // The agents of the pool as labelled now: what Run would count, were it pressed now.
  const poolLabels = pool?.labels ?? {};
  const inPool = pool && Object.keys(poolLabels).length ? online.filter((agent) => hasLabels(agent, poolLabels)) : [];
  const poolError = labelsProblem ?? errors.agents;
  // The schema names the pool's field its message is about (server/schemas/workload.ts, ZWorkloadAgents).
  const minError = poolError?.startsWith("agents.min:") ? poolError : undefined;

  return (
    <div className="stack agents-field" style={{ gap: "0.5rem" }}>
      <div className="row">
        <Field id={modeId} label="Agents per run">
          <select id={modeId} value={pool ? "pool" : "fixed"} onChange={(event) => choose(event.target.value)}>
            <option value="fixed">A fixed number</option>
            <option value="pool">Every online agent labelled…</option>
          </select>
        </Field>
        {pool ? (
          <>
            <Field
              id={labelsId}
              label="Labels"
              hint="key=value, comma-separated, e.g. pool=lab: an agent of the pool has all of them"
              error={minError ? undefined : poolError}
            >
              <input
                id={labelsId}
                type="text"
                autoComplete="off"
                placeholder="pool=lab"
                value={labelsText ?? labelText(poolLabels)}
                onChange={(event) => editLabels(event.target.value)}
                onBlur={() => (labelsProblem ? undefined : setLabelsText(null))}
                {...invalidProps(labelsId, minError ? undefined : poolError)}
              />
            </Field>
            <Field id={minId} label="At least" hint={`Fewer online refuses Run (1–${MAX_GROUP_AGENTS})`} error={minError}>
              <AgentNumber id={minId} value={pool.min ?? 1} error={minError} onChange={editMin} />
            </Field>
          </>
        ) : (
          <Field id={agentsId} label="Agents" error={errors.agents}>
            <AgentNumber id={agentsId} value={count} error={errors.agents} onChange={edit} />
          </Field>
        )}
        {pool || count > 1 ? (
          <Field id={lossId} label="If an agent is lost mid-run" error={errors.onShardLoss}>
            <select
              id={lossId}
              value={onShardLoss ?? "fail"}
              onChange={(event) => onChange({ agents, onShardLoss: event.target.value === "fail" ? undefined : (event.target.value as TShardLoss) })}
              {...invalidProps(lossId, errors.onShardLoss)}
            >
              {shardLossModes.map((mode) => (
                <option key={mode} value={mode}>
                  {lossLabels[mode]}
                </option>
              ))}
            </select>
          </Field>
        ) : null}
      </div>
      <p className="muted small" id={`${agentsId}-hint`} style={{ margin: 0 }}>
        {pool
          ? `Counted when you press Run: every agent then online with ${Object.keys(poolLabels).length ? labelText(poolLabels) : "these labels"} that offers the workload and “${SHARDS_CAPABILITY}” sends its share of ${splitNames.join(", ")} (at most ${MAX_GROUP_AGENTS} per run); with fewer than the minimum, Run is refused. ${
              Object.keys(poolLabels).length
                ? inPool.length
                  ? `${inPool.length} online here now — ${listed(inPool)}`
                  : "None online here has these labels now"
                : `Online here with “${SHARDS_CAPABILITY}”: ${online.length ? online.map((agent) => `${agent.name} (${labelText(agent.labels) || "no labels"})`).join(", ") : "none"}`
            }.`
          : `How many agents make each run of ${variant} together (1–${MAX_GROUP_AGENTS}), each sending its share of ${splitNames.join(", ")}; its percentiles are those of all their requests. Each needs the “${SHARDS_CAPABILITY}” capability (the Go agent offers it): ${
              online.length ? `${online.length} online offer${online.length === 1 ? "s" : ""} it here — ${listed(online)}` : "none online here offers it"
            }.`}
      </p>
    </div>
  );
}
