// Which new passwords are too easy to guess: common and breached ones, sequences, repetitions
// and the person's own name; long phrases and random strings are fine.
import { describe, expect, it } from "vitest";
import { passwordStrength, weakPasswordMessage } from "./password-strength";

describe("passwordStrength", () => {
  it("refuses common passwords, sequences, repetitions and keyboard walks, saying why", () => {
    for (const password of ["password1234", "iloveyou1234", "passwordpassword", "abcdefghijkl", "aaaaaaaaaaaa", "qwertyuiopas"]) {
      const strength = passwordStrength(password);
      expect(strength.acceptable, password).toBe(false);
      expect(strength.warning, password).toBeTruthy();
    }
    expect(weakPasswordMessage(passwordStrength("password1234"))).toBe(
      "password is too easy to guess (this is similar to a commonly used password): add more words or characters that do not follow a pattern",
    );
  });

  it("refuses a password made of the person's own name and email", () => {
    expect(passwordStrength("anastasiakowalczyk", ["Anastasia Kowalczyk", "anastasia.kowalczyk@example.com"]).acceptable).toBe(false);
    expect(passwordStrength("anastasiakowalczyk").acceptable).toBe(true);
  });

  it("accepts phrases, random strings, emoji and other scripts", () => {
    for (const password of [
      "correct horse battery staple",
      "twelve chars",
      "Versus-secret-2026",
      "Xq7#vL9!pR2@",
      "🐎🔋📎🐴🔌🖇️🐎🔋📎🐴🔌🖇️",
      "ねこがすきですかそれとも",
    ]) {
      expect(passwordStrength(password).acceptable, password).toBe(true);
    }
  });
});
