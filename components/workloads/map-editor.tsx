"use client";
// A setting whose names are the user's (HTTP headers: name → value): one row per entry, a name
// box and a value box, with Add and Remove. Rows without a name and value are left out.
import { useState } from "react";
import { fieldText, parseFieldText, type MapField } from "./settings-fields";
import { AddRowButton, RemoveRowButton } from "./row-buttons";
import { ScalarInput, type Parsed } from "./scalar-input";

interface Props {
  id: string;
  field: MapField;
  value: unknown;
  error?: string;
  onChange: (parsed: Parsed) => void;
}

interface Row {
  key: number;
  name: string;
  text: string;
}

/** The object the rows stand for (none at all: the setting is left out), or the first problem. */
export function mapValue(field: MapField, rows: { name: string; text: string }[]): Parsed {
  const entries: [string, unknown][] = [];
  const seen = new Set<string>();
  for (const [index, row] of rows.entries()) {
    const name = row.name.trim();
    if (name === "" && row.text === "") continue;
    if (name === "") return { error: `row ${index + 1}: give a name for the value “${row.text}”` };
    if (seen.has(name)) return { error: `“${name}” is given twice` };
    seen.add(name);
    const parsed = parseFieldText(field.value, row.text);
    if ("error" in parsed) return { error: `${name}: ${parsed.error}` };
    entries.push([name, parsed.value ?? (field.value.kind === "string" ? "" : undefined)]);
  }
  const present = entries.filter(([, value]) => value !== undefined);
  return { value: present.length ? Object.fromEntries(present) : undefined };
}

export function MapEditor({ id, field, value, error, onChange }: Props) {
  const initial = value && typeof value === "object" && !Array.isArray(value) ? Object.entries(value) : [];
  const [rows, setRows] = useState<Row[]>(() => initial.map(([name, item], index) => ({ key: index, name, text: fieldText(field.value, item) })));
  const [nextKey, setNextKey] = useState(initial.length);

  const publish = (next: Row[]) => {
    setRows(next);
    onChange(mapValue(field, next));
  };
  const update = (key: number, change: Partial<Row>) => publish(rows.map((row) => (row.key === key ? { ...row, ...change } : row)));

  return (
    <div className="settings-map" role="group" aria-label={field.label} aria-describedby={error ? `${id}-error` : undefined}>
      {rows.length ? (
        <div className="settings-map-head muted small" aria-hidden="true">
          <span>Name</span>
          <span>Value</span>
        </div>
      ) : null}
      {rows.map((row, index) => (
        <div key={row.key} className="settings-map-row">
          <input
            id={`${id}.${index}.name`}
            type="text"
            autoComplete="off"
            aria-label={`${field.label} ${index + 1}: name`}
            value={row.name}
            onChange={(event) => update(row.key, { name: event.target.value })}
          />
          <ScalarInput
            id={`${id}.${index}.value`}
            spec={field.value}
            value={row.text === "" ? undefined : row.text}
            ariaLabel={`${field.label} ${index + 1}: value`}
            onChange={(_parsed, text) => update(row.key, { text })}
          />
          <RemoveRowButton label={`Remove ${field.label} ${index + 1}`} onRemove={() => publish(rows.filter((other) => other.key !== row.key))} />
        </div>
      ))}
      <AddRowButton
        label={`Add an entry to ${field.label}`}
        text="Add entry"
        onAdd={() => {
          setRows([...rows, { key: nextKey, name: "", text: "" }]);
          setNextKey(nextKey + 1);
        }}
      />
    </div>
  );
}
