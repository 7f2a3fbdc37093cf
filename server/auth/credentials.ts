// Creating an email-and-password user inside the caller's transaction, so the account and
// whatever it is created for (the first owner's projects, an accepted invitation) land together.
// The rows are the ones better-auth's own sign-up writes: a User and a "credential" Account whose
// password is better-auth's scrypt hash, so better-auth signs the user in afterwards. A password
// too easy to guess is refused here, on the form's field (./password-strength.ts).
import { hashPassword } from "better-auth/crypto";
import type { Prisma } from "../db/client";
import { isUniqueViolation } from "../db/prisma-errors";
import { AppError, badInput } from "../errors";
import type { TNewAccount } from "../schemas/auth";
import { passwordStrength, weakPasswordMessage } from "./password-strength";

export async function createUserWithPassword(tx: Prisma.TransactionClient, account: TNewAccount) {
  const strength = passwordStrength(account.password, [account.name, account.email]);
  if (!strength.acceptable) throw badInput([{ path: ["account", "password"], message: weakPasswordMessage(strength) }]);
  const passwordHash = await hashPassword(account.password);
  try {
    const user = await tx.user.create({ data: { email: account.email, name: account.name, emailVerified: false } });
    await tx.account.create({ data: { userId: user.id, accountId: user.id, providerId: "credential", password: passwordHash } });
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
