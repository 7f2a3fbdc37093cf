// Creating an email-and-password user inside the caller's transaction, so the account and
// whatever it is created for (the first owner's projects, an accepted invitation) land together.
// The rows are the ones better-auth's own sign-up writes: a User and a "credential" Account whose
// password is better-auth's scrypt hash, so better-auth signs the user in afterwards.
//
// The slow part — judging the password (./password-strength.ts: a password too easy to guess is
// refused on the form's field) and hashing it with scrypt — is prepareNewAccount, run before the
// transaction opens: CPU work inside it holds its row locks and can outlast its timeout.
import { hashPassword } from "better-auth/crypto";
import type { Prisma } from "../db/client";
import { isUniqueViolation } from "../db/prisma-errors";
import { AppError, badInput } from "../core/errors";
import type { TNewAccount } from "../schemas/auth";
import { passwordStrength, weakPasswordMessage } from "./password-strength";

declare const prepared: unique symbol;

/** A new account whose password was judged and hashed: only prepareNewAccount makes one. */
export type PreparedAccount = { name: string; email: string; passwordHash: string } & { readonly [prepared]: true };

export async function prepareNewAccount(account: TNewAccount): Promise<PreparedAccount> {
  const strength = passwordStrength(account.password, [account.name, account.email]);
  if (!strength.acceptable) throw badInput([{ path: ["account", "password"], message: weakPasswordMessage(strength) }]);
  return { name: account.name, email: account.email, passwordHash: await hashPassword(account.password) } as PreparedAccount;
}

export async function createUserWithPassword(tx: Prisma.TransactionClient, account: PreparedAccount) {
  try {
    const user = await tx.user.create({ data: { email: account.email, name: account.name, emailVerified: false } });
    await tx.account.create({ data: { userId: user.id, accountId: user.id, providerId: "credential", password: account.passwordHash } });
    return user;
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw new AppError("CONFLICT", `An account with email ${account.email} already exists; sign in instead`, {
        fieldIssues: [{ path: ["email"], message: "an account with this email already exists; sign in instead" }],
        cause: error,
      });
    }
    throw error;
  }
}
