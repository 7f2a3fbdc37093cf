"use client";
// A workload's settings as a typed form drawn from the JSON Schema its agents advertise (see
// settings-fields.ts for what it draws): text and number boxes with their unit and default,
// selects for choices, rows for lists and name → value maps, a group of fields for an object of
// its own (and for each item of a list of objects), and a small JSON box for the rare setting
// none of these fit. What a user types is
// kept as typed; the settings change only when the text is a value.
import { useState } from "react";
import { Field, FieldError } from "~/components/forms/field";
import { ListEditor } from "./list-editor";
import { MapEditor } from "./map-editor";
import { RowsEditor } from "./rows-editor";
import { ScalarInput, type Parsed } from "./scalar-input";
import { fieldHint, isObject, isScalar, parseJsonText, withSetting, type SettingField } from "./settings-fields";

type Settings = Record<string, unknown>;

interface Props {
  idPrefix: string;
  fields: SettingField[];
  settings: Settings;
  /** Problems by setting path (from the schema check), shown beside their fields. */
  problems: Record<string, string>;
  /** New settings, and the fields whose text is no value yet (path → problem). */
  onChange: (settings: Settings, textProblems: Record<string, string>) => void;
}

export function SchemaForm({ idPrefix, fields, settings, problems, onChange }: Props) {
  const [textProblems, setTextProblems] = useState<Record<string, string>>({});

  const change = (path: string[], parsed: Parsed) => {
    const key = path.join(".");
    const nextProblems = { ...textProblems };
    let next = settings;
    if ("error" in parsed) nextProblems[key] = parsed.error;
    else {
      delete nextProblems[key];
      next = withSetting(settings, path, parsed.value);
    }
    setTextProblems(nextProblems);
    onChange(next, nextProblems);
  };

  const anyRequired = fields.some((field) => field.required);
  return (
    <div className="stack-tight">
      {anyRequired ? (
        <p className="muted small" style={{ margin: 0 }}>
          * required
        </p>
      ) : null}
      <Fields idPrefix={idPrefix} path={[]} fields={fields} value={settings} problems={{ ...problems, ...textProblems }} onChange={change} />
    </div>
  );
}

interface FieldsProps {
  idPrefix: string;
  path: string[];
  fields: SettingField[];
  value: Settings;
  problems: Record<string, string>;
  onChange: (path: string[], parsed: Parsed) => void;
}

function Fields({ idPrefix, path, fields, value, problems, onChange }: FieldsProps) {
  return (
    <div className="row settings-fields">
      {fields.map((field) => (
        <SettingInput
          key={field.key}
          idPrefix={idPrefix}
          path={[...path, field.key]}
          field={field}
          value={value[field.key]}
          problems={problems}
          onChange={onChange}
        />
      ))}
    </div>
  );
}

interface SettingProps {
  idPrefix: string;
  path: string[];
  field: SettingField;
  value: unknown;
  problems: Record<string, string>;
  onChange: (path: string[], parsed: Parsed) => void;
}

/** Problems of a map's own entries ("headers.X-Trace") as one message: the map draws no field per entry. */
function entryProblems(problems: Record<string, string>, key: string): string | undefined {
  const lines = Object.entries(problems)
    .filter(([path]) => path.startsWith(`${key}.`))
    .map(([path, message]) => `${path.slice(key.length + 1)}: ${message}`);
  return lines.length ? lines.join("; ") : undefined;
}

function SettingInput({ idPrefix, path, field, value, problems, onChange }: SettingProps) {
  const key = path.join(".");
  const id = `${idPrefix}.${key}`;
  const label = field.required ? `${field.label} *` : field.label;
  const hint = fieldHint(field) || undefined;
  const change = (parsed: Parsed) => onChange(path, parsed);

  if (field.kind === "object") {
    const error = problems[key];
    return (
      <fieldset className="settings-group" id={id} aria-describedby={error ? `${id}-error` : undefined}>
        <legend>{label}</legend>
        {hint ? <p className="hint muted small">{hint}</p> : null}
        <Fields idPrefix={idPrefix} path={path} fields={field.fields} value={isObject(value) ? value : {}} problems={problems} onChange={onChange} />
        <FieldError id={`${id}-error`} message={error} />
      </fieldset>
    );
  }
  if (field.kind === "rows") {
    const error = problems[key];
    return (
      <fieldset className="settings-group settings-wide" aria-describedby={error ? `${id}-error` : undefined}>
        <legend>{label}</legend>
        {hint ? <p className="hint muted small">{hint}</p> : null}
        <RowsEditor
          id={id}
          field={field}
          value={value}
          onChange={change}
          renderItem={(index, item, onItem) => (
            <Fields
              idPrefix={`${id}.${index}`}
              path={[]}
              fields={field.fields}
              value={item}
              // An item's problems are named on the list ("item 1, addr: …"), under its legend.
              problems={{}}
              onChange={(itemPath, parsed) =>
                onItem(
                  "error" in parsed
                    ? { error: `${field.label} ${index + 1}, ${itemPath.join(".")}: ${parsed.error}` }
                    : { value: withSetting(item, itemPath, parsed.value) },
                )
              }
            />
          )}
        />
        <FieldError id={`${id}-error`} message={error} />
      </fieldset>
    );
  }
  if (field.kind === "map" || field.kind === "list") {
    const error = problems[key] ?? (field.kind === "map" ? entryProblems(problems, key) : undefined);
    // Lists and maps have no single input for a <label>: their group is named by the legend.
    return (
      <fieldset className="settings-group settings-wide" aria-describedby={error ? `${id}-error` : hint ? `${id}-hint` : undefined}>
        <legend>{label}</legend>
        {field.kind === "map" ? (
          <MapEditor id={id} field={field} value={value} error={error} onChange={change} />
        ) : (
          <ListEditor id={id} field={field} value={value} error={error} onChange={change} />
        )}
        {hint && !error ? (
          <span className="hint" id={`${id}-hint`}>
            {hint}
          </span>
        ) : null}
        <FieldError id={`${id}-error`} message={error} />
      </fieldset>
    );
  }
  const error = problems[key];
  if (field.kind === "json") {
    return (
      <Field id={id} label={label} hint={hint} error={error}>
        <JsonBox id={id} value={value} error={error} onChange={change} />
      </Field>
    );
  }
  if (!isScalar(field)) return null;
  const input = (
    <Field id={id} label={label} hint={hint} error={error}>
      <ScalarInput id={id} spec={field} value={value} defaultValue={field.default} required={field.required} error={error} onChange={change} />
    </Field>
  );
  // Text (a URL, a body, a command line) gets two columns where there are two.
  return field.kind === "string" ? <div className="settings-text">{input}</div> : input;
}

function JsonBox({ id, value, error, onChange }: { id: string; value: unknown; error?: string; onChange: (parsed: Parsed) => void }) {
  const [text, setText] = useState(() => (value === undefined ? "" : JSON.stringify(value)));
  return (
    <textarea
      id={id}
      className="code"
      rows={2}
      spellCheck={false}
      value={text}
      {...(error ? { "aria-invalid": true as const, "aria-describedby": `${id}-error` } : {})}
      onChange={(event) => {
        setText(event.target.value);
        onChange(parseJsonText(event.target.value));
      }}
    />
  );
}
