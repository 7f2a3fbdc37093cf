// A labelled form control with its hint and error message, wired for screen readers.
import type { ReactNode } from "react";

export function Field(props: { id: string; label: string; hint?: string; error?: string; children: ReactNode }) {
  return (
    <div className="field">
      <label htmlFor={props.id}>{props.label}</label>
      {props.children}
      {props.hint && !props.error ? (
        <span className="hint" id={`${props.id}-hint`}>
          {props.hint}
        </span>
      ) : null}
      <FieldError id={`${props.id}-error`} message={props.error} />
    </div>
  );
}

export function FieldError({ id, message }: { id?: string; message?: string }) {
  if (!message) return null;
  return (
    <p className="error" id={id} role="alert">
      {message}
    </p>
  );
}

/** aria attributes that tie an input to its error message. */
export function invalidProps(id: string, error?: string) {
  return error ? { "aria-invalid": true as const, "aria-describedby": `${id}-error` } : {};
}
