"use client";
// When a share link or an enrollment token stops working: never, 1, 7 or 30 days from now, or
// the end of a day the user picks, in their own time zone (the form's schema, withExpiry in
// server/schemas/expiry.ts, turns the choice into the moment the procedures take). The picked
// day's last minute is spelled out on the user's clock and in UTC, the zone the lists use.
import type { UseFormRegisterReturn } from "react-hook-form";
import { formatYourTime } from "~/components/format";
import { endOfLocalDay, expiryChoices, type TExpiryFields } from "~/server/schemas/expiry";
import { Field, invalidProps } from "./field";

/** Today as the date input's "YYYY-MM-DD", in the browser's time zone (the earliest choosable day). */
function today(): string {
  const now = new Date();
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, "0")}-${String(now.getDate()).padStart(2, "0")}`;
}

interface ExpiryFieldsProps {
  idPrefix: string;
  label: string;
  /** What expiring stops, e.g. "After that, no new agent can enroll with it". */
  hint?: string;
  expiry: UseFormRegisterReturn;
  expiresOn: UseFormRegisterReturn;
  /** The current choice and day (useWatch), to show the day field and spell out its end. */
  value: Partial<TExpiryFields>;
  errors: { expiry?: string; expiresOn?: string };
}

export function ExpiryFields({ idPrefix, label, hint, expiry, expiresOn, value, errors }: ExpiryFieldsProps) {
  const selectId = `${idPrefix}-expiry`;
  const dateId = `${idPrefix}-expires-on`;
  const end = value.expiresOn ? endOfLocalDay(value.expiresOn) : undefined;
  return (
    <>
      <Field id={selectId} label={label} hint={hint} error={errors.expiry}>
        <select id={selectId} {...expiry} {...invalidProps(selectId, errors.expiry)}>
          {expiryChoices.map((choice) => (
            <option key={choice.value} value={choice.value}>
              {choice.label}
            </option>
          ))}
        </select>
      </Field>
      {value.expiry === "date" ? (
        <Field
          id={dateId}
          label="Last day it works"
          hint={end ? `Until ${formatYourTime(end)}` : "Through the end of that day, your time"}
          error={errors.expiresOn}
        >
          <input id={dateId} type="date" min={today()} {...expiresOn} {...invalidProps(dateId, errors.expiresOn)} />
        </Field>
      ) : null}
    </>
  );
}

/** The procedures call the expiry `expiresAt`; a problem with it shows beside the picker. */
export function expiryFieldOf(serverField: string): string {
  return serverField === "expiresAt" ? "expiry" : serverField;
}
