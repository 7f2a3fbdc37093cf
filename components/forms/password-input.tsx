"use client";
// A password field with a Show/Hide button beside it, so people can check what they typed
// before submitting. It stays an ordinary input otherwise: pasting and password managers work.
// A field for a new password also shows how guessable it is (`strength`, with the person's own
// name and email as `related`, which make a password easier to guess).
import { useState, type ComponentProps } from "react";
import { PasswordStrengthMeter } from "~/components/auth/password-strength-meter";

type Props = Omit<ComponentProps<"input">, "type"> & { strength?: { related?: string[] } };

export function PasswordInput({ strength, ...props }: Props) {
  const [shown, setShown] = useState(false);
  const [value, setValue] = useState("");
  return (
    <>
      <span className="password-input">
        <input
          {...props}
          type={shown ? "text" : "password"}
          onChange={(event) => {
            setValue(event.target.value);
            return props.onChange?.(event);
          }}
        />
        <button type="button" className="button" aria-controls={props.id} aria-pressed={shown} onClick={() => setShown(!shown)}>
          {shown ? "Hide" : "Show"}
        </button>
      </span>
      {strength ? <PasswordStrengthMeter password={value} related={strength.related} /> : null}
    </>
  );
}
