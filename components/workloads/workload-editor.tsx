"use client";
// What agents run for one variant: a workload kind (from what the project's agents advertise,
// or a name typed in) and its settings, as a typed form drawn from the workload's JSON Schema
// or as raw JSON (the fallback, and the only editor when no agent describes the workload).
import Link from "next/link";
import { useEffect, useState } from "react";
import { Segmented } from "~/components/charts/segmented";
import { Field, FieldError, invalidProps } from "~/components/forms/field";
import type { AdvertisedWorkload } from "~/server/agents/agent-admin";
import { splitsOverAgents, type TShardLoss, type TWorkloadAgentsInput, type TWorkloadMetric } from "~/server/schemas/workload";
import { splitSettingNames } from "~/server/workloads/split-settings";
import { AgentsField } from "./agents-field";
import { settingsProblems } from "~/server/workloads/settings-problems";
import { SchemaForm } from "./schema-form";
import { jsonExample, settingsForm } from "./settings-fields";
import { ProbesEditor, type ProbeDraft, type ProbeErrors } from "./probes-editor";
import { WorkloadMetrics } from "./workload-metrics";
import { useWorkloadProblems } from "./workload-problems";

type Settings = Record<string, unknown>;
export interface WorkloadConfig {
  workload?: string;
  settings?: Settings;
  probes?: ProbeDraft[];
  agents?: TWorkloadAgentsInput;
  onShardLoss?: TShardLoss;
}

interface Props {
  /** The form field this edits (e.g. "variants.0.config"); also the prefix of the inputs' ids. */
  name: string;
  /** The variant's name, for labels. */
  variant: string;
  value: WorkloadConfig;
  onChange: (config: WorkloadConfig) => void;
  /** What the project's agents advertise; undefined while loading. */
  workloads: AdvertisedWorkload[] | undefined;
  workloadsError?: string;
  /** Problems the form's own schema or the server found (the workload name, the config). */
  errors: { workload?: string; config?: string; settings?: string; probes?: ProbeErrors; agents?: string; onShardLoss?: string };
  /** After a submit attempt, missing required settings are shown too. */
  submitted: boolean;
  agentsHref: string;
  /** The experiment's metric keys now, and how to add a workload's metrics to them. */
  metricKeys: string[];
  onAddMetrics: (metrics: TWorkloadMetric[]) => void;
}

// Never a workload name (those start with a letter or digit). Not a NUL-prefixed string: the HTML
// parser turns a NUL in the server-rendered <option value> into U+FFFD, so it never matched.
const OTHER = "(other)";
type Mode = "form" | "json";

function isSettings(value: unknown): value is Settings {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The one-line problem the form's resolver reports for this editor, or null. */
function summary(textProblems: Record<string, string>, jsonProblem: string | null, schemaProblems: Record<string, string>): string | null {
  if (jsonProblem) return `settings: ${jsonProblem}`;
  const first = Object.entries({ ...schemaProblems, ...textProblems })[0];
  if (!first) return null;
  return first[0] ? `setting "${first[0]}" ${first[1]}` : `settings: ${first[1]}`;
}

export function WorkloadEditor({ name, variant, value, onChange, workloads, workloadsError, errors, submitted, agentsHref, metricKeys, onAddMetrics }: Props) {
  const registry = useWorkloadProblems();
  const [custom, setCustom] = useState(false);
  const [mode, setMode] = useState<Mode>("form");
  // What the raw JSON editor shows; null until the user types there (it then shows the settings).
  const [jsonText, setJsonText] = useState<string | null>(null);
  const [jsonProblem, setJsonProblem] = useState<string | null>(null);
  const [textProblems, setTextProblems] = useState<Record<string, string>>({});

  const settings = value.settings ?? {};
  const advert = workloads?.find((workload) => workload.name === value.workload);
  const form = advert ? settingsForm(advert.settingsSchema) : null;
  const typed = form !== null && "fields" in form ? form : null;
  const effectiveMode: Mode = typed ? mode : "json";
  const schemaProblems = advert && !jsonProblem ? settingsProblems(advert.settingsSchema, settings) : {};
  const problemNow = value.workload
    ? summary(effectiveMode === "form" ? textProblems : {}, effectiveMode === "json" ? jsonProblem : null, schemaProblems)
    : null;
  // Missing required settings wait for a submit; everything else shows as it is typed.
  const shownProblems = Object.fromEntries(Object.entries(schemaProblems).filter(([, message]) => submitted || message !== "required"));

  useEffect(() => {
    registry?.report(name, problemNow);
    return () => registry?.report(name, null);
  }, [registry, name, problemNow]);

  // Reports before the form revalidates on this change, not after the next render.
  const commit = (next: WorkloadConfig, nextText: Record<string, string>, nextJson: string | null) => {
    const nextAdvert = workloads?.find((workload) => workload.name === next.workload);
    const nextSchema = nextAdvert && !nextJson ? settingsProblems(nextAdvert.settingsSchema, next.settings ?? {}) : {};
    registry?.report(name, next.workload ? summary(nextText, nextJson, nextSchema) : null);
    onChange(next);
  };

  const chooseKind = (choice: string) => {
    setTextProblems({});
    setJsonProblem(null);
    setJsonText(null);
    setMode("form");
    if (choice === OTHER) {
      setCustom(true);
      commit({ workload: "", settings: {} }, {}, null);
    } else {
      setCustom(false);
      // Another workload's settings mean nothing to this one; its probes watch the same target.
      commit(choice ? { workload: choice, settings: {}, ...(value.probes ? { probes: value.probes } : {}) } : {}, {}, null);
    }
  };

  const switchMode = (next: Mode) => {
    setJsonText(null);
    setTextProblems({});
    setJsonProblem(null);
    setMode(next);
    commit(value, {}, null);
  };

  const editJson = (text: string) => {
    setJsonText(text);
    let problem: string | null = null;
    let parsed: unknown;
    try {
      parsed = text.trim() === "" ? {} : JSON.parse(text);
      if (!isSettings(parsed)) problem = 'must be a JSON object, e.g. {"level": 6}';
    } catch (error) {
      problem = `not valid JSON (${error instanceof Error ? error.message : String(error)})`;
    }
    setJsonProblem(problem);
    commit(problem ? value : { ...value, settings: parsed as Settings }, {}, problem);
  };

  const kindId = `${name}.workload`;
  const advertised = workloads ?? [];
  const knownKind = advertised.some((workload) => workload.name === value.workload);
  const selected = custom ? OTHER : (value.workload ?? "");
  const online = advert?.agents.filter((agent) => agent.online) ?? [];
  const jsonId = `${name}.settings`;
  const firstProblem = Object.entries(shownProblems).map(([key, message]) => (key ? `${key}: ${message}` : message))[0];
  const jsonError = jsonProblem ?? firstProblem ?? errors.settings;
  const shownJson = jsonText ?? JSON.stringify(settings, null, 2);
  // Agents that offer this workload with other settings than the ones this form draws.
  const otherSettings = advert?.agents.filter((agent) => !agent.sameSettings) ?? [];
  // The load settings several agents can share: the agents field is offered when there are some.
  const splitNames = advert ? splitSettingNames(advert.settingsSchema) : [];

  return (
    <div className="workload-editor" data-testid="workload-editor">
      <div className="row">
        <Field
          id={kindId}
          label="Workload"
          error={custom ? undefined : errors.workload}
          hint={advert?.description || "What agents run for this variant when you press Run"}
        >
          <select
            id={kindId}
            value={selected}
            onChange={(event) => chooseKind(event.target.value)}
            {...invalidProps(kindId, custom ? undefined : errors.workload)}
          >
            <option value="">None (results are uploaded)</option>
            {advertised.map((workload) => (
              <option key={workload.name} value={workload.name}>
                {workload.name}
              </option>
            ))}
            {value.workload && !knownKind && !custom ? <option value={value.workload}>{value.workload} (no agent offers it)</option> : null}
            <option value={OTHER}>Other (type its name)…</option>
          </select>
        </Field>
        {custom ? (
          <Field id={`${name}.workloadName`} label="Workload name" hint="As the agent that runs it names it" error={errors.workload}>
            <input
              id={`${name}.workloadName`}
              type="text"
              autoComplete="off"
              value={value.workload ?? ""}
              onChange={(event) => commit({ ...value, workload: event.target.value }, {}, jsonProblem)}
              {...invalidProps(`${name}.workloadName`, errors.workload)}
            />
          </Field>
        ) : null}
      </div>
      <FieldError message={errors.config} />
      {workloadsError ? <p className="error">The workloads agents offer could not be loaded: {workloadsError}</p> : null}
      {value.workload ? (
        <>
          <p className="muted small workload-availability">
            {workloads === undefined ? (
              "Loading what the project's agents offer…"
            ) : advert ? (
              online.length ? (
                <>Offered by {advert.agents.map((agent) => `${agent.name}${agent.online ? "" : " (offline)"}`).join(", ")}.</>
              ) : (
                <>
                  No agent that offers it is online ({advert.agents.map((agent) => agent.name).join(", ")}): its jobs wait until one is. See{" "}
                  <Link href={agentsHref}>Agents</Link>.
                </>
              )
            ) : (
              <>
                No agent of this project offers “{value.workload}”, so its settings are edited as JSON and checked by the agent when it runs them.{" "}
                {advertised.length === 0 ? (
                  <>
                    Enroll one on the <Link href={agentsHref}>Agents</Link> page to get a typed form.
                  </>
                ) : null}
              </>
            )}
            {otherSettings.length
              ? ` ${otherSettings.map((agent) => `${agent.name} (${agent.kind})`).join(", ")} take${otherSettings.length === 1 ? "s" : ""} other settings for it; this form is ${advert?.agents[0]?.name ?? "the first agent"}'s, and settings any of them takes are accepted.`
              : null}
            {form && "unsupported" in form ? ` The settings are edited as JSON: ${form.unsupported}.` : null}
          </p>
          {advert ? <WorkloadMetrics workload={advert} metricKeys={metricKeys} onAdd={onAddMetrics} /> : null}
          {splitNames.length || splitsOverAgents(value.agents) ? (
            <AgentsField
              name={name}
              variant={variant}
              agents={value.agents}
              onShardLoss={value.onShardLoss}
              splitNames={splitNames.length ? splitNames : ["its load"]}
              shardAgents={advert?.agents.filter((agent) => agent.shards) ?? []}
              errors={{ agents: errors.agents, onShardLoss: errors.onShardLoss }}
              onChange={(next) => {
                const { agents: _agents, onShardLoss: _loss, ...rest } = value;
                commit(
                  { ...rest, ...(next.agents !== undefined ? { agents: next.agents } : {}), ...(next.onShardLoss ? { onShardLoss: next.onShardLoss } : {}) },
                  effectiveMode === "form" ? textProblems : {},
                  jsonProblem,
                );
              }}
            />
          ) : null}
          <div className="workload-settings-head">
            <span className="label">Settings</span>
            {typed ? (
              <Segmented
                label={`How to edit ${variant}'s settings`}
                options={[
                  { value: "form", label: "Form" },
                  { value: "json", label: "Raw JSON" },
                ]}
                value={effectiveMode}
                onChange={(next) => (next !== effectiveMode ? switchMode(next) : undefined)}
              />
            ) : null}
          </div>
          {effectiveMode === "form" && typed ? (
            <>
              <SchemaForm
                idPrefix={`${name}.settings`}
                fields={typed.fields}
                settings={settings}
                problems={shownProblems}
                onChange={(next, nextText) => {
                  setTextProblems(nextText);
                  commit({ ...value, settings: next }, nextText, null);
                }}
              />
              <FieldError message={shownProblems[""]} />
            </>
          ) : (
            <div className="field">
              <textarea
                id={jsonId}
                className="code"
                aria-label={`${variant}: settings as JSON`}
                rows={Math.min(12, Math.max(3, shownJson.split("\n").length + 1))}
                spellCheck={false}
                value={shownJson}
                onChange={(event) => editJson(event.target.value)}
                {...invalidProps(jsonId, jsonError)}
              />
              <span className="hint">
                A JSON object
                {advert ? (
                  <>
                    , e.g. <code>{jsonExample(advert.settingsSchema)}</code>
                  </>
                ) : null}
                ; settings left out take the agent&apos;s defaults.
              </span>
              <FieldError id={`${jsonId}-error`} message={jsonError} />
            </div>
          )}
          <ProbesEditor
            name={name}
            variant={variant}
            probes={value.probes ?? []}
            onChange={(probes) =>
              commit({ ...value, ...(probes.length ? { probes } : { probes: undefined }) }, effectiveMode === "form" ? textProblems : {}, jsonProblem)
            }
            errors={errors.probes}
            metricKeys={metricKeys}
            onAddMetrics={onAddMetrics}
          />
        </>
      ) : null}
    </div>
  );
}
