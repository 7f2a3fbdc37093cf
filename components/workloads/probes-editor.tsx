"use client";
// A variant's probes: what its agent samples on the system under test while the workload runs
// (a Prometheus endpoint with presets and custom series, or a process on the agent's host), each as typed fields,
// and each probe's metrics offered with one click like the workload's. The schema (ZProbe) checks
// the values; its problems and the server's land on the field they name.
import { Field, FieldError, invalidProps } from "~/components/forms/field";
import { RemoveRowButton } from "~/components/forms/remove-row-button";
import { ZProbe, probePresets, type TProbePreset } from "~/server/schemas/probe";
import type { TWorkloadMetric } from "~/server/schemas/workload";
import { probeMetrics } from "~/server/workloads/probe-metrics";
import { MetricOffers } from "./metric-offers";
import { ProbeSeriesEditor } from "./probe-series-editor";

/** A probe as the form holds it: numbers may still be the text typed (the schema then says what is wrong). */
export type ProbeDraft = Record<string, unknown> & { name?: string; kind?: string };
type Draft = ProbeDraft;
type MatchBy = "name" | "pid" | "pattern";

/** react-hook-form's errors for the probes array: by index, then by field. */
export type ProbeErrors = { message?: string; [key: string]: unknown } | undefined;
const messageAt = (tree: unknown, ...path: (string | number)[]): string | undefined => {
  let node = tree as Record<string | number, unknown> | undefined;
  for (const key of path) node = node?.[key] as Record<string | number, unknown> | undefined;
  return (node as { message?: string } | undefined)?.message;
};

const presetHints: Record<TProbePreset, string> = {
  process:
    "CPU % and resident memory (process_cpu_seconds_total, or Micrometer's process_cpu_time_ns_total; process_resident_memory_bytes when the target has it)",
  jvm: "heap used and its peak, GC count and time, live threads (Micrometer's jvm_* series)",
  go: "heap in use and its peak, GC count and time (client_golang's go_* series)",
  node: "host CPU % and memory used (node_exporter)",
};

const matchHints: Record<MatchBy, string> = {
  name: "The process name as /proc/PID/comm has it, e.g. postgres or java (at most 15 characters)",
  pid: "The process id; it changes when the process restarts",
  pattern: "A regular expression over the full command line, e.g. java .*-jar app\\.jar",
};

/** A number field's value: a number when the text is one, else the text (which the schema refuses, naming the field). */
function numberOrText(text: string): number | string | undefined {
  if (text.trim() === "") return undefined;
  const value = Number(text);
  return Number.isFinite(value) ? value : text;
}

function newProbe(existing: Draft[]): Draft {
  const taken = new Set(existing.map((probe) => probe.name));
  let index = existing.length + 1;
  while (taken.has(`app-${index}`)) index++;
  return { name: `app-${index}`, kind: "prometheus", url: "", presets: ["process"], intervalSeconds: 1, required: false };
}

function withKind(probe: Draft, kind: string): Draft {
  const common = { name: probe.name, intervalSeconds: probe.intervalSeconds, required: probe.required };
  return kind === "process" ? { ...common, kind, match: { name: "" } } : { ...common, kind: "prometheus", url: "", presets: ["process"] };
}

interface Props {
  /** The form field of the variant's config (e.g. "variants.0.config"); the inputs' ids start with it. */
  name: string;
  variant: string;
  probes: Draft[];
  onChange: (probes: Draft[]) => void;
  errors: ProbeErrors;
  metricKeys: string[];
  onAddMetrics: (metrics: TWorkloadMetric[]) => void;
}

export function ProbesEditor({ name, variant, probes, onChange, errors, metricKeys, onAddMetrics }: Props) {
  const update = (index: number, next: Draft) => onChange(probes.map((probe, at) => (at === index ? next : probe)));
  return (
    <div className="probes-editor" data-testid="probes-editor">
      <div className="workload-settings-head">
        <span className="label">Probes</span>
        <button type="button" className="button small" onClick={() => onChange([...probes, newProbe(probes)])}>
          Add probe
        </button>
      </div>
      <p className="muted small workload-availability">
        {probes.length
          ? "Sampled once per interval during each run's measured part; each probe's figures are metrics of the run named after it."
          : `Measure the system under test while ${variant} runs: its CPU, memory, heap and GC, from a Prometheus endpoint or a process on the agent's host.`}
      </p>
      <FieldError message={messageAt(errors, "message") ?? messageAt(errors, "root", "message")} />
      {probes.map((probe, index) => (
        <ProbeRow
          key={index}
          id={`${name}.probes.${index}`}
          index={index}
          probe={probe}
          errors={(errors as Record<number, unknown> | undefined)?.[index]}
          onChange={(next) => update(index, next)}
          onRemove={() => onChange(probes.filter((_, at) => at !== index))}
          metricKeys={metricKeys}
          onAddMetrics={onAddMetrics}
        />
      ))}
    </div>
  );
}

interface RowProps {
  id: string;
  index: number;
  probe: Draft;
  errors: unknown;
  onChange: (probe: Draft) => void;
  onRemove: () => void;
  metricKeys: string[];
  onAddMetrics: (metrics: TWorkloadMetric[]) => void;
}

function ProbeRow({ id, index, probe, errors, onChange, onRemove, metricKeys, onAddMetrics }: RowProps) {
  const set = (field: string, value: unknown) => onChange({ ...probe, [field]: value });
  const error = (...path: string[]) => messageAt(errors, ...path);
  const parsed = ZProbe.safeParse(probe);
  const label = probe.name || `probe ${index + 1}`;
  const ids = { name: `${id}.name`, kind: `${id}.kind`, interval: `${id}.intervalSeconds`, url: `${id}.url`, matchBy: `${id}.matchBy`, match: `${id}.match` };
  return (
    <div className="probe-row" data-testid="probe-row">
      <div className="row">
        <Field id={ids.name} label="Probe name" hint="Prefix of its metrics, e.g. app-1 gives app-1.cpu_percent" error={error("name")}>
          <input
            id={ids.name}
            type="text"
            autoComplete="off"
            value={probe.name ?? ""}
            onChange={(event) => set("name", event.target.value)}
            {...invalidProps(ids.name, error("name"))}
          />
        </Field>
        <Field id={ids.kind} label="Kind" error={error("kind")}>
          <select id={ids.kind} value={probe.kind ?? "prometheus"} onChange={(event) => onChange(withKind(probe, event.target.value))}>
            <option value="prometheus">Prometheus endpoint</option>
            <option value="process">Process on the agent&apos;s host</option>
          </select>
        </Field>
        <Field id={ids.interval} label="Interval (s)" hint="Seconds between readings; 0.1 to 60" error={error("intervalSeconds")}>
          <input
            id={ids.interval}
            type="text"
            inputMode="decimal"
            value={probe.intervalSeconds === undefined ? "" : String(probe.intervalSeconds)}
            onChange={(event) => set("intervalSeconds", numberOrText(event.target.value))}
            {...invalidProps(ids.interval, error("intervalSeconds"))}
          />
        </Field>
        <div className="row-remove">
          <RemoveRowButton what="probe" index={index} onRemove={onRemove} />
        </div>
      </div>
      {probe.kind === "process" ? (
        <ProcessFields ids={ids} probe={probe} onChange={onChange} error={error} />
      ) : (
        <PrometheusFields id={id} ids={ids} probe={probe} set={set} error={error} label={label} />
      )}
      <label className="checkbox">
        <input type="checkbox" checked={Boolean(probe.required)} onChange={(event) => set("required", event.target.checked)} />
        Required: fail the run when a reading fails mid-run (otherwise the interval is a gap and the run carries a warning)
      </label>
      <FieldError message={error("message")} />
      {parsed.success ? (
        <MetricOffers
          metrics={probeMetrics(parsed.data)}
          metricKeys={metricKeys}
          onAdd={onAddMetrics}
          heading={`${label} reports`}
          testId="probe-metrics"
          itemTestId="probe-metric"
        />
      ) : null}
    </div>
  );
}

function PrometheusFields({
  id,
  ids,
  probe,
  set,
  error,
  label,
}: {
  id: string;
  ids: { url: string };
  probe: Draft;
  set: (field: string, value: unknown) => void;
  error: (...path: string[]) => string | undefined;
  label: string;
}) {
  const presets = Array.isArray(probe.presets) ? (probe.presets as string[]) : [];
  const toggle = (preset: TProbePreset, on: boolean) =>
    set("presets", on ? probePresets.filter((name) => name === preset || presets.includes(name)) : presets.filter((name) => name !== preset));
  const presetsError = error("presets") ?? probePresets.map((_, at) => error("presets", String(at))).find(Boolean);
  const series = Array.isArray(probe.series) ? (probe.series as Record<string, unknown>[]) : [];
  return (
    <>
      <Field
        id={ids.url}
        label="Metrics URL"
        hint="A Prometheus or OpenMetrics text endpoint, e.g. http://127.0.0.1:8081/actuator/prometheus"
        error={error("url")}
      >
        <input
          id={ids.url}
          type="url"
          autoComplete="off"
          value={String(probe.url ?? "")}
          onChange={(event) => set("url", event.target.value)}
          {...invalidProps(ids.url, error("url"))}
        />
      </Field>
      <fieldset className="probe-presets" aria-describedby={presetsError ? `${id}.presets-error` : undefined}>
        <legend className="label">Presets: the well-known series {label} reads</legend>
        {probePresets.map((preset) => (
          <label key={preset} className="checkbox">
            <input type="checkbox" checked={presets.includes(preset)} onChange={(event) => toggle(preset, event.target.checked)} />
            <span>
              <strong>{preset}</strong> <span className="muted small">{presetHints[preset]}</span>
            </span>
          </label>
        ))}
        <FieldError id={`${id}.presets-error`} message={presetsError} />
      </fieldset>
      <ProbeSeriesEditor id={id} probeName={label} series={series} onChange={(next) => set("series", next)} error={error} />
    </>
  );
}

function ProcessFields({
  ids,
  probe,
  onChange,
  error,
}: {
  ids: { matchBy: string; match: string };
  probe: Draft;
  onChange: (probe: Draft) => void;
  error: (...path: string[]) => string | undefined;
}) {
  const match = (probe.match ?? {}) as Record<string, unknown>;
  const by: MatchBy = "pid" in match ? "pid" : "pattern" in match ? "pattern" : "name";
  const value = match[by];
  const matchError = error("match", by) ?? error("match");
  return (
    <div className="row">
      <Field id={ids.matchBy} label="Match the process by">
        <select
          id={ids.matchBy}
          value={by}
          onChange={(event) => onChange({ ...probe, match: { [event.target.value]: event.target.value === "pid" ? undefined : "" } })}
        >
          <option value="name">Name</option>
          <option value="pid">PID</option>
          <option value="pattern">Command-line pattern</option>
        </select>
      </Field>
      <Field id={ids.match} label={by === "pid" ? "PID" : by === "pattern" ? "Pattern" : "Process name"} hint={matchHints[by]} error={matchError}>
        <input
          id={ids.match}
          type="text"
          autoComplete="off"
          inputMode={by === "pid" ? "numeric" : undefined}
          value={value === undefined ? "" : String(value)}
          onChange={(event) => onChange({ ...probe, match: { [by]: by === "pid" ? numberOrText(event.target.value) : event.target.value } })}
          {...invalidProps(ids.match, matchError)}
        />
      </Field>
    </div>
  );
}
