// Per-account sign-in throttle, beside better-auth's per-address limit. The address limit keys on
// the client's address, and someone guessing with many addresses (a botnet, a wide IPv6 block)
// has many buckets; this one keys on the account, so guessing one person's password stops
// however many addresses the guesses come from.
// After ACCOUNT_LOCKOUT.failures failed sign-ins within the window, the account refuses sign-in
// (right password or not) until the lock ends; a successful sign-in clears the count.
import type { Db } from "../db/client";

export const ACCOUNT_LOCKOUT = { failures: 10, windowMs: 15 * 60_000, lockMs: 15 * 60_000 };

/** When the account's lock ends, if it is locked now. */
export async function lockedUntil(db: Db, email: string, now = new Date()): Promise<Date | null> {
  const row = await db.signInFailure.findUnique({ where: { email: email.toLowerCase() } });
  return row?.lockedUntil && row.lockedUntil > now ? row.lockedUntil : null;
}

export async function recordFailedSignIn(db: Db, email: string, now = new Date()): Promise<void> {
  const key = email.toLowerCase();
  await db.$transaction(async (tx) => {
    // Row lock: concurrent guesses must each count.
    await tx.$executeRaw`INSERT INTO "SignInFailure" (email, failures, "firstAt") VALUES (${key}, 0, ${now}) ON CONFLICT (email) DO NOTHING`;
    const [row] = await tx.$queryRaw<{ failures: number; firstAt: Date }[]>`SELECT failures, "firstAt" FROM "SignInFailure" WHERE email = ${key} FOR UPDATE`;
    const fresh = !row || now.getTime() - row.firstAt.getTime() > ACCOUNT_LOCKOUT.windowMs;
    const failures = fresh ? 1 : row.failures + 1;
    await tx.signInFailure.update({
      where: { email: key },
      data: {
        failures,
        firstAt: fresh ? now : row.firstAt,
        lockedUntil: failures >= ACCOUNT_LOCKOUT.failures ? new Date(now.getTime() + ACCOUNT_LOCKOUT.lockMs) : null,
      },
    });
  });
}

export async function clearFailedSignIns(db: Db, email: string): Promise<void> {
  await db.signInFailure.deleteMany({ where: { email: email.toLowerCase() } });
}
