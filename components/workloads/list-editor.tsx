"use client";
// A list setting (a command and its arguments, JVM flags, exit codes): one input per item, with
// Add and Remove, so an item may hold commas and spaces. Empty rows are left out of the value.
import { useState } from "react";
import { fieldText, parseFieldText, type ListField } from "./settings-fields";
import { AddRowButton, RemoveRowButton } from "./row-buttons";
import { ScalarInput, type Parsed } from "./scalar-input";

interface Props {
  id: string;
  field: ListField;
  value: unknown;
  error?: string;
  onChange: (parsed: Parsed) => void;
}

interface Row {
  key: number;
  text: string;
}

/** The list the rows stand for (empty rows left out; none at all: the setting is left out), or the first row's problem. */
export function listValue(field: ListField, texts: string[]): Parsed {
  const values: unknown[] = [];
  for (const [index, text] of texts.entries()) {
    const parsed = parseFieldText(field.item, text);
    if ("error" in parsed) return { error: `item ${index + 1}: ${parsed.error}` };
    if (parsed.value !== undefined) values.push(parsed.value);
  }
  return { value: values.length ? values : undefined };
}

export function ListEditor({ id, field, value, error, onChange }: Props) {
  const initial = Array.isArray(value) ? value : [];
  const [rows, setRows] = useState<Row[]>(() => initial.map((item, index) => ({ key: index, text: fieldText(field.item, item) })));
  const [nextKey, setNextKey] = useState(initial.length);

  const publish = (next: Row[]) => {
    setRows(next);
    onChange(
      listValue(
        field,
        next.map((row) => row.text),
      ),
    );
  };

  return (
    <div className="settings-list" role="group" aria-label={field.label} aria-describedby={error ? `${id}-error` : undefined}>
      {rows.map((row, index) => (
        <div key={row.key} className="settings-list-row">
          <ScalarInput
            id={`${id}.${index}`}
            spec={field.item}
            value={row.text === "" ? undefined : row.text}
            ariaLabel={`${field.label}, item ${index + 1}`}
            onChange={(_parsed, text) => publish(rows.map((other) => (other.key === row.key ? { ...other, text } : other)))}
          />
          <RemoveRowButton label={`Remove ${field.label} item ${index + 1}`} onRemove={() => publish(rows.filter((other) => other.key !== row.key))} />
        </div>
      ))}
      <AddRowButton
        label={`Add an item to ${field.label}`}
        text="Add item"
        onAdd={() => {
          setRows([...rows, { key: nextKey, text: "" }]);
          setNextKey(nextKey + 1);
        }}
      />
    </div>
  );
}
