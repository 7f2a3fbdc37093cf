"use client";
// A Prometheus probe's custom series: any series of the endpoint read as a metric of the run
// (`<probe>.<key>`), beyond what the presets know — a queue's depth, a pool's active connections,
// a counter's rate. Labels are typed as Prometheus writes them (`area="heap", id="G1 Old Gen"`).
// The schema (ZProbeSeries) checks each field; its problems land on the field they name.
import { useState } from "react";
import { directionLabel } from "~/components/format";
import { Field, invalidProps } from "~/components/forms/field";
import { metricDirections } from "~/server/schemas/metric";
import { probeSeriesAggregations, type TProbeSeriesAggregation } from "~/server/schemas/probe";
import { AddRowButton, RemoveRowButton } from "./row-buttons";

type SeriesDraft = Record<string, unknown>;

const aggregationHints: Record<TProbeSeriesAggregation, string> = {
  rate: "a counter's per-second rate (run: the mean rate)",
  delta: "a counter's increase (run: the total)",
  mean: "a gauge's mean",
  max: "a gauge's maximum",
  min: "a gauge's minimum",
  last: "a gauge's last reading",
};

const labelPair = /\s*([a-zA-Z_][a-zA-Z0-9_]*)\s*=\s*"((?:[^"\\]|\\.)*)"\s*(?:,|$)/y;

/** `area="heap", id="G1 Old Gen"` → {area: "heap", id: "G1 Old Gen"}; a string naming the problem when the text is not that. */
export function parseLabels(text: string): Record<string, string> | undefined | string {
  const trimmed = text.trim().replace(/^\{|\}$/g, "");
  if (trimmed.trim() === "") return undefined;
  const labels: Record<string, string> = {};
  labelPair.lastIndex = 0;
  while (labelPair.lastIndex < trimmed.length) {
    const at = labelPair.lastIndex;
    const match = labelPair.exec(trimmed);
    if (!match) return `labels: write them as Prometheus does, name="value" separated by commas (could not read “${trimmed.slice(at).trim()}”)`;
    const [, name, value] = match as unknown as [string, string, string];
    if (name in labels) return `labels: ${name} is given twice`;
    labels[name] = value.replace(/\\(.)/g, "$1");
  }
  return labels;
}

/** The labels as Prometheus writes them, for the text box. */
export function labelsText(labels: unknown): string {
  if (!labels || typeof labels !== "object") return "";
  return Object.entries(labels as Record<string, unknown>)
    .map(([name, value]) => `${name}="${String(value).replace(/["\\]/g, "\\$&")}"`)
    .join(", ");
}

interface Props {
  /** The probe's field id (e.g. "variants.0.config.probes.1"); the inputs' ids start with it. */
  id: string;
  probeName: string;
  series: SeriesDraft[];
  onChange: (series: SeriesDraft[] | undefined) => void;
  error: (...path: string[]) => string | undefined;
}

export function ProbeSeriesEditor({ id, probeName, series, onChange, error }: Props) {
  const update = (index: number, next: SeriesDraft) => onChange(series.map((row, at) => (at === index ? next : row)));
  return (
    <div className="probe-series" data-testid="probe-series">
      <span className="label">Custom series</span>
      {series.length === 0 ? (
        <p className="muted small">Any other series of the endpoint as a metric of the run, e.g. a queue&apos;s depth or a pool&apos;s active connections.</p>
      ) : null}
      {series.map((row, index) => (
        <SeriesRow
          key={index}
          id={`${id}.series.${index}`}
          probeName={probeName}
          index={index}
          row={row}
          onChange={(next) => update(index, next)}
          onRemove={() => {
            const rest = series.filter((_, at) => at !== index);
            onChange(rest.length ? rest : undefined);
          }}
          error={(...path) => error("series", String(index), ...path)}
        />
      ))}
      <AddRowButton
        label={`Add a custom series to ${probeName}`}
        text="Add series"
        onAdd={() => onChange([...series, { key: "", metric: "", aggregation: "mean", unit: "", direction: "lower_is_better" }])}
      />
    </div>
  );
}

interface RowProps {
  id: string;
  probeName: string;
  index: number;
  row: SeriesDraft;
  onChange: (row: SeriesDraft) => void;
  onRemove: () => void;
  error: (...path: string[]) => string | undefined;
}

function SeriesRow({ id, probeName, index, row, onChange, onRemove, error }: RowProps) {
  const set = (field: string, value: unknown) => onChange({ ...row, [field]: value });
  const [labels, setLabels] = useState(() => labelsText(row.labels));
  const ids = {
    key: `${id}.key`,
    metric: `${id}.metric`,
    labels: `${id}.labels`,
    aggregation: `${id}.aggregation`,
    unit: `${id}.unit`,
    direction: `${id}.direction`,
  };
  const key = String(row.key ?? "");
  const parsedLabels = parseLabels(labels);
  const labelsError = (typeof parsedLabels === "string" ? parsedLabels : undefined) ?? error("labels");
  return (
    <div className="probe-series-row" data-testid="probe-series-row">
      <div className="row">
        <TextField
          id={ids.key}
          label="Key"
          hint={`The run reports ${probeName || "probe"}.${key || "key"}`}
          placeholder="queue_depth"
          value={key}
          error={error("key")}
          onChange={(text) => set("key", text)}
        />
        <TextField
          id={ids.metric}
          label="Prometheus series"
          placeholder="executor_queued_tasks"
          value={String(row.metric ?? "")}
          error={error("metric")}
          onChange={(text) => set("metric", text)}
        />
        <TextField
          id={ids.labels}
          label="Labels (optional)"
          hint='Matching samples are summed, e.g. name="io", area="heap"'
          value={labels}
          error={labelsError}
          onChange={(text) => {
            setLabels(text);
            const parsed = parseLabels(text);
            // Text that does not read as labels is kept as text, which the schema refuses: the probe is not saved so.
            set("labels", typeof parsed === "string" ? text : parsed);
          }}
        />
      </div>
      <div className="row">
        <Field
          id={ids.aggregation}
          label="Per interval, per run"
          hint={aggregationHints[row.aggregation as TProbeSeriesAggregation]}
          error={error("aggregation")}
        >
          <select id={ids.aggregation} value={String(row.aggregation ?? "mean")} onChange={(event) => set("aggregation", event.target.value)}>
            {probeSeriesAggregations.map((aggregation) => (
              <option key={aggregation} value={aggregation}>
                {aggregation}
              </option>
            ))}
          </select>
        </Field>
        <TextField id={ids.unit} label="Unit" placeholder="count" value={String(row.unit ?? "")} error={error("unit")} onChange={(text) => set("unit", text)} />
        <Field id={ids.direction} label="Better when" error={error("direction")}>
          <select id={ids.direction} value={String(row.direction ?? "lower_is_better")} onChange={(event) => set("direction", event.target.value)}>
            {metricDirections.map((direction) => (
              <option key={direction} value={direction}>
                {directionLabel[direction]}
              </option>
            ))}
          </select>
        </Field>
        <div className="row-remove">
          <RemoveRowButton label={`Remove custom series ${index + 1} of ${probeName}`} onRemove={onRemove} />
        </div>
      </div>
    </div>
  );
}

/** One of a series' text boxes, with its label, hint and problem. */
function TextField({
  id,
  label,
  hint,
  placeholder,
  value,
  error,
  onChange,
}: {
  id: string;
  label: string;
  hint?: string;
  placeholder?: string;
  value: string;
  error: string | undefined;
  onChange: (text: string) => void;
}) {
  return (
    <Field id={id} label={label} hint={hint} error={error}>
      <input
        id={id}
        type="text"
        autoComplete="off"
        placeholder={placeholder}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        {...invalidProps(id, error)}
      />
    </Field>
  );
}
