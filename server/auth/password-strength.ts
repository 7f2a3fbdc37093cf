// How guessable a new password is, by zxcvbn (zxcvbn-ts): it knows the ~50,000 most common
// passwords and English words, names and keyboard patterns, and estimates the guesses a cracker
// would need. Versus refuses a new password scored below MIN_PASSWORD_SCORE — a common or
// breached one ("password1234"), a sequence ("abcdefghijkl"), a repetition — wherever one is set
// (setup, invitations: auth/credentials.ts; changing it: auth/auth.ts), and the forms show the
// same estimate as the person types (components/auth/password-strength-meter.tsx).
import { ZxcvbnFactory } from "@zxcvbn-ts/core";
import * as common from "@zxcvbn-ts/language-common";
import * as en from "@zxcvbn-ts/language-en";

/** zxcvbn's scores: 0 < 10³ guesses, 1 < 10⁶, 2 < 10⁸, 3 < 10¹⁰, 4 more. */
export const MIN_PASSWORD_SCORE = 2;

export const PASSWORD_SCORE_LABELS = ["very weak", "weak", "fair", "good", "strong"] as const;

export interface PasswordStrength {
  score: 0 | 1 | 2 | 3 | 4;
  acceptable: boolean;
  /** Why it is easy to guess, when it is ("This is similar to a commonly used password."). */
  warning: string | null;
  suggestions: string[];
}

let estimator: ZxcvbnFactory | undefined;

/** `related` are words of the person's own (name, email) that make a password easier to guess. */
export function passwordStrength(password: string, related: string[] = []): PasswordStrength {
  estimator ??= new ZxcvbnFactory({ dictionary: { ...common.dictionary, ...en.dictionary }, graphs: common.adjacencyGraphs, translations: en.translations });
  const result = estimator.check(
    password,
    related.flatMap((text) => text.split(/[\s@.]+/)).filter((word) => word.length >= 3),
  );
  return { score: result.score, acceptable: result.score >= MIN_PASSWORD_SCORE, warning: result.feedback.warning, suggestions: result.feedback.suggestions };
}

/** The refusal of a password too easy to guess, naming why when zxcvbn says. */
export function weakPasswordMessage(strength: PasswordStrength): string {
  return `password is too easy to guess${strength.warning ? ` (${strength.warning.replace(/\.$/, "").toLowerCase()})` : ""}: add more words or characters that do not follow a pattern`;
}
