"use client";
// When a share link stops working: a preset or a calendar date (the link works through that
// day). Used by the create form and by a link's "Change expiry".
import type { UseFormRegisterReturn } from "react-hook-form";
import { Field, invalidProps } from "~/components/forms/field";
import { shareExpiryChoices } from "~/server/schemas/share-link";

/** Today as the date input's "YYYY-MM-DD", in the browser's time zone (the earliest choosable day). */
function today(): string {
  const now = new Date();
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, "0")}-${String(now.getDate()).padStart(2, "0")}`;
}

export function ExpiryFields(props: { idPrefix: string; label: string; expiry: UseFormRegisterReturn; expiresOn: UseFormRegisterReturn; choice: string; dateError?: string }) {
  const selectId = `${props.idPrefix}-expiry`;
  const dateId = `${props.idPrefix}-expires-on`;
  return (
    <div className="row">
      <Field id={selectId} label={props.label}>
        <select id={selectId} {...props.expiry}>
          {shareExpiryChoices.map((choice) => (
            <option key={choice.value} value={choice.value}>
              {choice.label}
            </option>
          ))}
        </select>
      </Field>
      {props.choice === "date" ? (
        <Field id={dateId} label="Last day it works" error={props.dateError}>
          <input id={dateId} type="date" min={today()} {...props.expiresOn} {...invalidProps(dateId, props.dateError)} />
        </Field>
      ) : null}
    </div>
  );
}
