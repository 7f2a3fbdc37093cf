"use client";
// How guessable a new password is, as the server will judge it when the form is sent
// (server/auth/password-strength.ts), shown while the person types. The estimator and its
// dictionaries are loaded only once someone types a new password.
import { useEffect, useMemo, useState } from "react";

type Estimator = typeof import("~/server/auth/password-strength");

export function PasswordStrengthMeter({ password, related = [] }: { password: string; related?: string[] }) {
  const [estimator, setEstimator] = useState<Estimator>();
  useEffect(() => {
    if (password && !estimator) void import("~/server/auth/password-strength").then(setEstimator);
  }, [password, estimator]);
  const relatedKey = related.join("\n");
  const strength = useMemo(
    () => (estimator && password ? estimator.passwordStrength(password, relatedKey ? relatedKey.split("\n") : []) : undefined),
    [estimator, password, relatedKey],
  );
  if (!estimator || !strength) return null;
  return (
    <span className="password-strength" data-score={strength.score} aria-live="polite">
      <meter min={0} max={4} low={2} high={3} optimum={4} value={strength.score} aria-label="Strength" />
      <span>
        Strength: {estimator.PASSWORD_SCORE_LABELS[strength.score]}
        {strength.acceptable ? "" : ` — too easy to guess${strength.warning ? `: ${strength.warning}` : ""}`}
      </span>
    </span>
  );
}
