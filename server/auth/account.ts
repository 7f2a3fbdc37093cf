// One's own account details: the name others see, and the email one signs in with. Passwords
// change through better-auth (the account page's other form).
import { verifyPassword } from "better-auth/crypto";
import { lockedUntil, recordFailedSignIn } from "./account-lockout";
import type { Db } from "../db/client";
import { isUniqueViolation } from "../db/prisma-errors";
import { AppError, badInput } from "../core/errors";
import type { TChangeEmail, TUpdateName } from "../schemas/auth";

export async function updateOwnName(db: Db, userId: string, input: TUpdateName) {
  return db.user.update({ where: { id: userId }, data: { name: input.name }, select: { name: true, email: true } });
}

/**
 * A new sign-in email, after the current password proves it is the account's owner (Versus sends
 * no confirmation email). A wrong password counts as a failed sign-in of the account, so a session
 * left open cannot be used to guess it; while the account is locked the change is refused.
 * Other sessions stay signed in: the password, not the email, is what they were proven with.
 */
export async function changeOwnEmail(db: Db, userId: string, input: TChangeEmail) {
  const user = await db.user.findUniqueOrThrow({
    where: { id: userId },
    select: { email: true, accounts: { where: { providerId: "credential" }, select: { password: true } } },
  });
  const until = await lockedUntil(db, user.email);
  if (until) {
    const minutes = Math.ceil((until.getTime() - Date.now()) / 60_000);
    throw new AppError("FORBIDDEN", `Too many failed sign-ins for this account. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`);
  }
  const hash = user.accounts[0]?.password;
  if (!hash || !(await verifyPassword({ hash, password: input.currentPassword }))) {
    await recordFailedSignIn(db, user.email);
    throw badInput([{ path: ["currentPassword"], message: "this is not your current password" }]);
  }
  if (input.newEmail === user.email) throw badInput([{ path: ["newEmail"], message: "this is already your email" }]);
  try {
    // Not verified: nobody has proven they receive mail there (Versus never sends any).
    return await db.user.update({ where: { id: userId }, data: { email: input.newEmail, emailVerified: false }, select: { name: true, email: true } });
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw new AppError("CONFLICT", `Another account already signs in with ${input.newEmail}`, {
        fieldIssues: [{ path: ["newEmail"], message: "another account already signs in with this email" }],
        cause: error,
      });
    }
    throw error;
  }
}
