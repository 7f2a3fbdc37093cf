"use client";
// Copies a secret or command to the clipboard. The clipboard API exists only on secure origins
// (https, localhost); elsewhere the button says to select the text instead of failing silently.
import { useState } from "react";

export function CopyButton({ text, label }: { text: string; label: string }) {
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  const onClick = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setState("copied");
    } catch {
      setState("failed");
    }
  };
  return (
    <button type="button" className="button small" onClick={onClick} aria-label={label}>
      <span aria-live="polite">{state === "copied" ? "Copied" : state === "failed" ? "Select and copy by hand" : "Copy"}</span>
    </button>
  );
}
