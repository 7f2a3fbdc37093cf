// The way back in for someone who forgot their password, run by whoever runs the server
// (`npx versus admin reset-password --email …`; Versus sends no email). The new password is
// random and shown once; every session of that user ends, so a thief's session ends too.
import crypto from "node:crypto";
import { hashPassword } from "better-auth/crypto";
import type { Db } from "../db/client";
import { AppError } from "../core/errors";

export async function resetPassword(db: Db, email: string): Promise<{ email: string; password: string }> {
  const user = await db.user.findUnique({ where: { email: email.trim().toLowerCase() } });
  if (!user) throw new AppError("NOT_FOUND", `No account with email ${email}`);
  const password = crypto.randomBytes(18).toString("base64url");
  const hash = await hashPassword(password);
  await db.$transaction(async (tx) => {
    const updated = await tx.account.updateMany({ where: { userId: user.id, providerId: "credential" }, data: { password: hash } });
    if (updated.count === 0) await tx.account.create({ data: { userId: user.id, accountId: user.id, providerId: "credential", password: hash } });
    await tx.session.deleteMany({ where: { userId: user.id } });
  });
  return { email: user.email, password };
}
