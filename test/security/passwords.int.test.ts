// Password rules as the forms (ZPassword: setup, invitations) and better-auth's change-password
// apply them: at least 12 characters, up to 128, any Unicode (spaces and emoji included), no
// composition rules, never truncated — a 128-character password that differs from the stored
// one only in its last character does not sign in — and a new password that is common or
// otherwise easy to guess (server/auth/password-strength.ts) is refused wherever one is set.
import crypto from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { auth } from "~/server/auth/auth";
import { createUserWithPassword, prepareNewAccount } from "~/server/auth/credentials";
import { db } from "~/server/db/client";
import { AppError } from "~/server/core/errors";
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH, ZPassword } from "~/server/schemas/auth";
import { signIn } from "~/test/signed-in";

afterAll(() => db.$disconnect());

async function account(password: string, email = `pw-${crypto.randomBytes(4).toString("hex")}@example.test`) {
  const newAccount = await prepareNewAccount({ name: "Password", email, password });
  await db.$transaction((tx) => createUserWithPassword(tx, newAccount));
  return email;
}

describe("password rules", () => {
  it("at least 12 characters, at most 128; letters alone, spaces, emoji and kanji are all fine", () => {
    expect(MIN_PASSWORD_LENGTH).toBe(12);
    expect(MAX_PASSWORD_LENGTH).toBe(128);
    expect(ZPassword.safeParse("a".repeat(11)).error?.issues[0]?.message).toBe("password must be at least 12 characters");
    expect(ZPassword.safeParse("a".repeat(129)).error?.issues[0]?.message).toBe("password must be at most 128 characters");
    for (const password of ["abcdefghijkl", "correct horse battery staple", "🐎🔋📎🐴🔌🖇️🐎🔋📎🐴🔌🖇️", "漢字漢字漢字漢字漢字漢字", "x".repeat(128)]) {
      expect(ZPassword.safeParse(password).success, password).toBe(true);
    }
  });

  it("no truncation: only the whole 128-character password signs in", async () => {
    const password = `${crypto.randomBytes(96).toString("base64url").slice(0, 127)}1`;
    expect(password).toHaveLength(128);
    const email = await account(password);
    await expect(signIn(email, `${password.slice(0, 127)}2`)).rejects.toThrow();
    await expect(signIn(email, password.slice(0, 72))).rejects.toThrow();
    expect(await signIn(email, password)).toMatch(/session_token=/);
  });

  it("changing one's password needs the current one, and holds the new one to the same rules", async () => {
    const email = await account("the first password");
    const headers = new Headers({ cookie: await signIn(email, "the first password") });
    const change = (currentPassword: string, newPassword: string) =>
      auth.api.changePassword({ headers, body: { currentPassword, newPassword } }).then(
        () => "changed",
        (error: { body?: { code?: string } }) => error.body?.code,
      );
    expect(await change("not the password", "a new password here")).toBe("INVALID_PASSWORD");
    expect(await change("the first password", "elevenchars")).toBe("PASSWORD_TOO_SHORT");
    expect(await change("the first password", "password1234")).toBe("PASSWORD_TOO_WEAK");
    expect(await change("the first password", "twelve chars")).toBe("changed");
    expect(await signIn(email, "twelve chars")).toMatch(/session_token=/);
  });

  it("a new account with a common or patterned password is refused on its password field, and nothing is written", async () => {
    for (const password of ["password1234", "abcdefghijkl", "qwertyuiopas"]) {
      const email = `weak-${crypto.randomBytes(4).toString("hex")}@example.test`;
      const refused = await account(password, email).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(refused, password).toBeInstanceOf(AppError);
      expect((refused as AppError).fieldIssues).toEqual([{ path: ["account", "password"], message: expect.stringMatching(/^password is too easy to guess/) }]);
      expect(await db.user.count({ where: { email } })).toBe(0);
    }
  });
});
