"use client";
// One value of a setting: a text box (numbers with their unit beside them, the default as its
// placeholder) or a select for yes/no and a choice of values. It keeps what the user typed, so a
// half-written number stays on screen with its problem beside it instead of being dropped.
import { useState } from "react";
import { fieldText, parseFieldText, type ScalarSpec } from "./settings-fields";

export type Parsed = { value: unknown } | { error: string };

interface Props {
  id: string;
  spec: ScalarSpec;
  value: unknown;
  /** The setting's default (shown as the placeholder or the select's first option). */
  defaultValue?: unknown;
  required?: boolean;
  /** The input's name for screen readers when no <label> names it (a list's row). */
  ariaLabel?: string;
  error?: string;
  /** The value the new text stands for (or what is wrong with it), and the text itself. */
  onChange: (parsed: Parsed, text: string) => void;
}

function choiceLabel(value: unknown): string {
  if (value === true) return "yes";
  if (value === false) return "no";
  return String(value);
}

export function ScalarInput({ id, spec, value, defaultValue, required, ariaLabel, error, onChange }: Props) {
  const [text, setText] = useState(() => fieldText(spec, value));
  const change = (next: string) => {
    setText(next);
    onChange(parseFieldText(spec, next), next);
  };
  const common = {
    id,
    value: text,
    "aria-label": ariaLabel,
    "aria-required": required || undefined,
    ...(error ? { "aria-invalid": true as const, "aria-describedby": `${id}-error` } : {}),
  };
  const choices = spec.kind === "boolean" ? [true, false] : spec.kind === "enum" ? (spec.options ?? []) : null;
  const suggestions = spec.kind === "string" && spec.suggestions?.length ? spec.suggestions : null;
  const input = choices ? (
    <select {...common} onChange={(event) => change(event.target.value)}>
      <option value="">{defaultValue !== undefined ? `default (${choiceLabel(defaultValue)})` : required ? "choose…" : "not set"}</option>
      {choices.map((choice) => (
        <option key={String(choice)} value={String(choice)}>
          {choiceLabel(choice)}
          {spec.unit ? ` ${spec.unit}` : ""}
        </option>
      ))}
    </select>
  ) : (
    <input
      {...common}
      type="text"
      autoComplete="off"
      inputMode={spec.kind === "integer" ? "numeric" : spec.kind === "number" ? "decimal" : undefined}
      placeholder={defaultValue !== undefined && defaultValue !== "" ? fieldText(spec, defaultValue) : undefined}
      list={suggestions ? `${id}-suggestions` : undefined}
      onChange={(event) => change(event.target.value)}
    />
  );
  if (suggestions) {
    // A datalist offers the usual values without refusing others (unlike a select).
    return (
      <>
        {input}
        <datalist id={`${id}-suggestions`}>
          {suggestions.map((suggestion) => (
            <option key={suggestion} value={suggestion} />
          ))}
        </datalist>
      </>
    );
  }
  if (!spec.unit || choices) return input;
  return (
    <span className="input-with-unit">
      {input}
      <span className="unit" aria-hidden="true">
        {spec.unit}
      </span>
    </span>
  );
}
