"use client";
// The box that shows a newly created secret (API key, enrollment token) its only time, with how
// to use it. The server keeps only a hash, so this is the user's one chance to copy it.
import { CopyButton } from "~/components/copy-button";

export interface SecretShownOnceProps {
  /** Accessible name of the box, e.g. "New API key secret". */
  label: string;
  /** What the secret is, in the sentence "Copy the … now", e.g. "key". */
  kind: string;
  name: string;
  secret: string;
  testId: string;
  usageHint: string;
  usage: string;
  /** The usage's copy button, e.g. "Copy commands". */
  usageCopyLabel: string;
}

export function SecretShownOnce({ label, kind, name, secret, testId, usageHint, usage, usageCopyLabel }: SecretShownOnceProps) {
  return (
    <div className="secret" role="status" aria-label={label}>
      <p>
        <strong>
          Copy the {kind} “{name}” now
        </strong>{" "}
        — it is shown only once.
      </p>
      <div className="secret-value">
        <pre data-testid={testId}>{secret}</pre>
        <CopyButton text={secret} />
      </div>
      <p className="muted small">{usageHint}</p>
      <div className="secret-value">
        <pre>{usage}</pre>
        <CopyButton text={usage} label={usageCopyLabel} />
      </div>
    </div>
  );
}
