// Agent enrollment tokens: a member creates one per machine or fleet, an agent presents it once
// to enroll and gets a credential of its own (the agent protocol). Like API keys they are shown
// once, stored as a SHA-256 of the secret, and reach only their own project. One token may
// enroll many agents until it expires or is revoked; revoking it stops new enrollments only.
import { hashSecret, newSecret, secretStatus } from "../auth/secret-tokens";
import type { Db } from "../db/client";
import { formatDateTime } from "../display/display";
import { AppError } from "../core/errors";
import type { TCreateEnrollmentToken, TEnrollmentTokenStatus } from "../schemas/enrollment-token";

export interface EnrollmentTokenRow {
  id: string;
  name: string;
  prefix: string;
  createdAt: Date;
  expiresAt: Date | null;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
  createdBy: { name: string; email: string } | null;
  status: TEnrollmentTokenStatus;
}

/** `createdById` is null for a token Versus makes itself (the local agent of `npm start`). */
export async function createEnrollmentToken(db: Db, projectId: string, createdById: string | null, input: Pick<TCreateEnrollmentToken, "name" | "expiresAt">) {
  const { secret, prefix, hash } = newSecret("venr_");
  const token = await db.agentEnrollmentToken.create({
    data: { projectId, name: input.name, prefix, tokenHash: hash, createdById, expiresAt: input.expiresAt },
  });
  return { id: token.id, name: token.name, prefix: token.prefix, createdAt: token.createdAt, expiresAt: token.expiresAt, secret };
}

export async function listEnrollmentTokens(db: Db, projectId: string, now = new Date()): Promise<EnrollmentTokenRow[]> {
  const tokens = await db.agentEnrollmentToken.findMany({
    where: { projectId },
    orderBy: [{ revokedAt: { sort: "desc", nulls: "first" } }, { createdAt: "desc" }],
    select: {
      id: true,
      name: true,
      prefix: true,
      createdAt: true,
      expiresAt: true,
      lastUsedAt: true,
      revokedAt: true,
      createdBy: { select: { name: true, email: true } },
    },
  });
  return tokens.map((token) => ({ ...token, status: secretStatus(token, now) }));
}

/**
 * Revokes a token of this project. An id from another project is "not found", exactly like an id
 * that does not exist. Revoking twice keeps the first revocation date.
 */
export async function revokeEnrollmentToken(db: Db, projectId: string, tokenId: string, now = new Date()): Promise<{ id: string; revokedAt: Date }> {
  // One conditional write, so two revocations at once cannot both set the date.
  const { count } = await db.agentEnrollmentToken.updateMany({ where: { id: tokenId, projectId, revokedAt: null }, data: { revokedAt: now } });
  if (count === 1) return { id: tokenId, revokedAt: now };
  const earlier = await db.agentEnrollmentToken.findFirst({ where: { id: tokenId, projectId }, select: { revokedAt: true } });
  if (!earlier?.revokedAt) throw new AppError("NOT_FOUND", "No enrollment token with that id in this project");
  return { id: tokenId, revokedAt: earlier.revokedAt };
}

/** Enough of the database to verify a token; a transaction client will do. */
type TokenStore = Pick<Db, "agentEnrollmentToken">;

export interface VerifiedEnrollment {
  projectId: string;
  tokenId: string;
}

/**
 * Checks a secret an agent presented to enroll and records the use. Throws UNAUTHORIZED saying
 * whether the token is unknown, revoked or expired, so an operator reading the agent's log knows
 * what to fix.
 */
export async function verifyEnrollmentToken(db: TokenStore, secret: string, now = new Date()): Promise<VerifiedEnrollment> {
  const token = await db.agentEnrollmentToken.findUnique({
    where: { tokenHash: hashSecret(secret.trim()) },
    select: { id: true, projectId: true, name: true, revokedAt: true, expiresAt: true },
  });
  if (!token) {
    const hint = secret.trim().startsWith("vs_") ? " (that is a project API key; agents enroll with a venr_… token from the project's Agents page)" : "";
    throw new AppError("UNAUTHORIZED", `Unknown enrollment token${hint}`);
  }
  const status = secretStatus(token, now);
  if (status === "revoked") throw new AppError("UNAUTHORIZED", `Enrollment token "${token.name}" was revoked on ${formatDateTime(token.revokedAt)}`);
  if (status === "expired") throw new AppError("UNAUTHORIZED", `Enrollment token "${token.name}" expired on ${formatDateTime(token.expiresAt)}`);
  await db.agentEnrollmentToken.update({ where: { id: token.id }, data: { lastUsedAt: now } });
  return { projectId: token.projectId, tokenId: token.id };
}
