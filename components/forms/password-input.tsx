"use client";
// A password field with a Show/Hide button beside it, so people can check what they typed
// before submitting. It stays an ordinary input otherwise: pasting and password managers work.
import { useState, type ComponentProps } from "react";

export function PasswordInput(props: Omit<ComponentProps<"input">, "type">) {
  const [shown, setShown] = useState(false);
  return (
    <span className="password-input">
      <input {...props} type={shown ? "text" : "password"} />
      <button type="button" className="button" aria-controls={props.id} aria-pressed={shown} onClick={() => setShown(!shown)}>
        {shown ? "Hide" : "Show"}
      </button>
    </span>
  );
}
