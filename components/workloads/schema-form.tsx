"use client";
// A workload's settings as a typed form drawn from the JSON Schema its agents advertise (see
// settings-fields.ts for which schemas it covers). What a user types is kept as typed, so a
// half-written number stays on screen with its problem beside it instead of being dropped.
import { useState } from "react";
import { Field, invalidProps } from "~/components/forms/field";
import { fieldText, parseFieldText, withSetting, type SettingField } from "./settings-fields";

type Settings = Record<string, unknown>;

interface Props {
  idPrefix: string;
  fields: SettingField[];
  settings: Settings;
  /** Problems by setting key (from the schema check), shown beside their fields. */
  problems: Record<string, string>;
  /** New settings, and the fields whose text is no value yet (key → problem). */
  onChange: (settings: Settings, textProblems: Record<string, string>) => void;
}

/** 67108864 as "67,108,864": bounds are read, not typed. */
const figure = (value: number | undefined) => (value === undefined ? undefined : value.toLocaleString("en-US", { maximumFractionDigits: 20 }));

function boundsHint(field: SettingField): string {
  const low = figure(field.minimum ?? field.exclusiveMinimum);
  const high = figure(field.maximum ?? field.exclusiveMaximum);
  const item = field.kind.endsWith("-list") ? "each " : "";
  if (low !== undefined && high !== undefined) return `${item}${field.exclusiveMinimum !== undefined ? ">" : ""}${low} to ${field.exclusiveMaximum !== undefined ? "<" : ""}${high}`;
  if (low !== undefined) return `${item}${field.exclusiveMinimum !== undefined ? "more than" : "at least"} ${low}`;
  if (high !== undefined) return `${item}${field.exclusiveMaximum !== undefined ? "less than" : "at most"} ${high}`;
  return "";
}

/** The hint under a field: its description, bounds, list format and default. */
export function fieldHint(field: SettingField): string {
  const parts = [
    field.description,
    boundsHint(field),
    field.kind.endsWith("-list") ? "comma-separated" : "",
    field.default !== undefined && field.kind !== "boolean" && field.kind !== "enum" ? `default ${fieldText(field, field.default)}` : "",
  ];
  return parts.filter(Boolean).join(" · ");
}

function choiceLabel(value: unknown): string {
  if (value === true) return "yes";
  if (value === false) return "no";
  return String(value);
}

export function SchemaForm({ idPrefix, fields, settings, problems, onChange }: Props) {
  // The text of each input; settings change only when the text is a value.
  const [texts, setTexts] = useState<Record<string, string>>(() => Object.fromEntries(fields.map((field) => [field.key, fieldText(field, settings[field.key])])));
  const [textProblems, setTextProblems] = useState<Record<string, string>>({});

  const change = (field: SettingField, text: string) => {
    setTexts((current) => ({ ...current, [field.key]: text }));
    const parsed = parseFieldText(field, text);
    const nextProblems = { ...textProblems };
    let next = settings;
    if ("error" in parsed) nextProblems[field.key] = parsed.error;
    else {
      delete nextProblems[field.key];
      next = withSetting(settings, field.key, parsed.value);
    }
    setTextProblems(nextProblems);
    onChange(next, nextProblems);
  };

  const anyRequired = fields.some((field) => field.required);
  return (
    <div className="stack-tight">
      {anyRequired ? <p className="muted small" style={{ margin: 0 }}>* required</p> : null}
      <div className="row">
        {fields.map((field) => {
          const id = `${idPrefix}.${field.key}`;
          const error = textProblems[field.key] ?? problems[field.key];
          const label = field.required ? `${field.label} *` : field.label;
          const common = { id, value: texts[field.key] ?? "", ...invalidProps(id, error), "aria-required": field.required || undefined };
          const choices = field.kind === "boolean" ? [true, false] : field.kind === "enum" ? (field.options ?? []) : null;
          return (
            <Field key={field.key} id={id} label={label} hint={fieldHint(field) || undefined} error={error}>
              {choices ? (
                <select {...common} onChange={(event) => change(field, event.target.value)}>
                  <option value="">{field.default !== undefined ? `default (${choiceLabel(field.default)})` : field.required ? "choose…" : "not set"}</option>
                  {choices.map((choice) => (
                    <option key={String(choice)} value={String(choice)}>
                      {choiceLabel(choice)}
                    </option>
                  ))}
                </select>
              ) : (
                <input
                  {...common}
                  type="text"
                  autoComplete="off"
                  inputMode={field.kind === "integer" ? "numeric" : field.kind === "number" ? "decimal" : undefined}
                  placeholder={field.default !== undefined ? fieldText(field, field.default) : undefined}
                  onChange={(event) => change(field, event.target.value)}
                />
              )}
            </Field>
          );
        })}
      </div>
    </div>
  );
}
