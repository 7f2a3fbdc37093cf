// A form's primary button: disabled until React has hydrated the form (a click before that would
// submit natively, without validation) and while the submission is under way.
import type { ReactNode } from "react";

export function SubmitButton({ hydrated, submitting, children }: { hydrated: boolean; submitting: boolean; children: ReactNode }) {
  return (
    <button className="button primary" type="submit" disabled={!hydrated || submitting}>
      {children}
    </button>
  );
}
