"use client";
// A list of objects of one shape (the targets an agent starts for a job): each item a group of its
// own fields, drawn by the form around it, with Remove, and Add under them. An item keeps every
// setting typed into it; a list left with no items is left out (the agent's default applies).
import { useState, type ReactNode } from "react";
import { AddRowButton, RemoveRowButton } from "./row-buttons";
import type { Parsed } from "./scalar-input";
import { isObject, type RowsField } from "./settings-fields";

type Item = Record<string, unknown>;

interface Props {
  id: string;
  field: RowsField;
  value: unknown;
  onChange: (parsed: Parsed) => void;
  /** Draws item `index`'s fields; `onItem` takes the item's new settings, or the problem of one of its inputs. */
  renderItem: (index: number, item: Item, onItem: (parsed: Parsed) => void) => ReactNode;
}

interface Row {
  key: number;
  item: Item;
}

export function RowsEditor({ id, field, value, onChange, renderItem }: Props) {
  const initial = Array.isArray(value) ? value : [];
  const [rows, setRows] = useState<Row[]>(() => initial.map((item, index) => ({ key: index, item: isObject(item) ? item : {} })));
  const [nextKey, setNextKey] = useState(initial.length);

  const publish = (next: Row[]) => {
    setRows(next);
    onChange({ value: next.length ? next.map((row) => row.item) : undefined });
  };
  const full = field.maxItems !== undefined && rows.length >= field.maxItems;

  return (
    <div className="stack-tight" role="group" aria-label={field.label}>
      {rows.map((row, index) => (
        <fieldset key={row.key} className="settings-group" id={`${id}.${index}`}>
          <legend>
            {field.label} {index + 1}
          </legend>
          {renderItem(index, row.item, (parsed) =>
            "error" in parsed ? onChange(parsed) : publish(rows.map((other) => (other.key === row.key ? { ...other, item: parsed.value as Item } : other))),
          )}
          <RemoveRowButton label={`Remove ${field.label} ${index + 1}`} onRemove={() => publish(rows.filter((other) => other.key !== row.key))} />
        </fieldset>
      ))}
      {full ? null : (
        <AddRowButton
          label={`Add an item to ${field.label}`}
          text="Add item"
          onAdd={() => {
            publish([...rows, { key: nextKey, item: {} }]);
            setNextKey(nextKey + 1);
          }}
        />
      )}
    </div>
  );
}
