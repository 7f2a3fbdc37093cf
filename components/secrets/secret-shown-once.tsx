"use client";
// The box that shows a newly created secret (API key, enrollment token, share link, invitation
// link) its only time, with a Copy button and, where it helps, how to use it. The server keeps
// only a hash, so this is the user's one chance to copy it.
import type { ReactNode, Ref } from "react";
import { CopyButton } from "~/components/copy-button";

export interface SecretShownOnceProps {
  /** Accessible name of the box, e.g. "New API key secret". */
  label: string;
  secret: string;
  testId: string;
  /** What it is and that it is shown once. */
  message: ReactNode;
  /** The secret's copy button, e.g. "Copy link". */
  copyLabel?: string;
  /** How to use it: a line of explanation and a command to copy. */
  usage?: { hint: string; text: string; copyLabel: string };
  boxRef?: Ref<HTMLDivElement>;
}

export function SecretShownOnce({ label, secret, testId, message, copyLabel, usage, boxRef }: SecretShownOnceProps) {
  return (
    <div className="secret" role="status" aria-label={label} ref={boxRef}>
      <p>{message}</p>
      <div className="secret-value">
        <pre data-testid={testId}>{secret}</pre>
        <CopyButton text={secret} label={copyLabel} />
      </div>
      {usage ? (
        <>
          <p className="muted small">{usage.hint}</p>
          <div className="secret-value">
            <pre>{usage.text}</pre>
            <CopyButton text={usage.text} label={usage.copyLabel} />
          </div>
        </>
      ) : null}
    </div>
  );
}

/**
 * The box for a new named credential (an API key, an enrollment token): "Copy the <kind>
 * “<name>” now — it is shown only once.", the secret, and how to use it.
 */
export function namedSecret(kind: string, created: { name: string; secret: string }, usage: SecretShownOnceProps["usage"]): SecretShownOnceProps {
  return {
    label: `New ${kind} secret`,
    testId: `${kind.toLowerCase().replace(/\s+/g, "-")}-secret`,
    secret: created.secret,
    message: (
      <>
        <strong>
          Copy the {kind} “{created.name}” now
        </strong>{" "}
        — it is shown only once.
      </>
    ),
    usage,
  };
}
