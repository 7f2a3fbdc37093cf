"use client";
// A read-only value with a Copy button. The field stays selectable, so copying by hand works
// where the clipboard API is unavailable (plain http on another host). It takes the focus when it
// appears (selected, in view, announced): the value is what the person came for.
import { useEffect, useRef, useState } from "react";

export function CopyField({ id, label, value }: { id: string; label: string; value: string }) {
  const input = useRef<HTMLInputElement>(null);
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  useEffect(() => input.current?.focus(), [value]);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setState("copied");
    } catch {
      input.current?.select();
      setState("failed");
    }
  };
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <div className="copy-field">
        <input id={id} ref={input} type="text" readOnly value={value} onFocus={(event) => event.currentTarget.select()} />
        <button type="button" className="button" onClick={() => void copy()}>
          Copy
        </button>
      </div>
      <span className="hint" aria-live="polite">
        {state === "copied" ? "Copied to the clipboard." : state === "failed" ? "Press Ctrl+C (⌘C) to copy the selected link." : ""}
      </span>
    </div>
  );
}
