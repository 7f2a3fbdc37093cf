"use client";
// How many agents make each of a variant's runs together (a load test split over several agents,
// docs/agents.md "One load test on several agents"), and what a run does when one of them is lost.
// Offered for workloads whose settings schema marks load settings to share (x-versus-split).
import { useState } from "react";
import { Field, invalidProps } from "~/components/forms/field";
import { MAX_GROUP_AGENTS, shardLossModes, type TShardLoss } from "~/server/schemas/workload";
import { SHARDS_CAPABILITY } from "~/server/workloads/job-capabilities";

interface Props {
  /** The form field of the variant's config (e.g. "variants.0.config"): the inputs' ids start with it. */
  name: string;
  variant: string;
  agents: number | undefined;
  onShardLoss: TShardLoss | undefined;
  /** The workload's load settings, which the agents share. */
  splitNames: string[];
  /** The agents that offer the workload and `shards`. */
  shardAgents: { name: string; online: boolean }[];
  errors: { agents?: string; onShardLoss?: string };
  onChange: (next: { agents: number | undefined; onShardLoss: TShardLoss | undefined }) => void;
}

const lossLabels: Record<TShardLoss, string> = {
  fail: "Fail the run (run it again while attempts remain)",
  partial: "Store the other agents' run, marked partial",
};

export function AgentsField({ name, variant, agents, onShardLoss, splitNames, shardAgents, errors, onChange }: Props) {
  // What is typed, so an empty box or a half-typed number stays as typed.
  const [text, setText] = useState<string | null>(null);
  const agentsId = `${name}.agents`;
  const lossId = `${name}.onShardLoss`;
  const online = shardAgents.filter((agent) => agent.online);
  const count = agents ?? 1;
  const edit = (typed: string) => {
    setText(typed);
    const value = Number(typed);
    // 1 (or nothing) is one agent: the config leaves agents out. Anything else goes to the schema, which says what is wrong.
    const next = typed.trim() === "" || value === 1 ? undefined : value;
    onChange({ agents: next, onShardLoss: next !== undefined && next > 1 ? onShardLoss : undefined });
  };
  return (
    <div className="row agents-field">
      <Field
        id={agentsId}
        label="Agents"
        error={errors.agents}
        hint={`How many agents make each run of ${variant} together (1–${MAX_GROUP_AGENTS}), each sending its share of ${splitNames.join(", ")}; its percentiles are those of all their requests. Each needs the “${SHARDS_CAPABILITY}” capability (the Go agent offers it): ${
          online.length
            ? `${online.length} online offer${online.length === 1 ? "s" : ""} it here — ${online.map((agent) => agent.name).join(", ")}`
            : "none online here offers it"
        }.`}
      >
        <input
          id={agentsId}
          type="number"
          inputMode="numeric"
          min={1}
          max={MAX_GROUP_AGENTS}
          step={1}
          value={text ?? String(count)}
          onChange={(event) => edit(event.target.value)}
          onBlur={() => setText(null)}
          {...invalidProps(agentsId, errors.agents)}
        />
      </Field>
      {count > 1 ? (
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
  );
}
